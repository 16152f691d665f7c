import type { Resource } from '../../../shared/framework/action';
import { synthesize } from './synthesize.operation';

/** Text to Speech: its entry in the Resource picker and its operations, in the order the design lists them. */
export const textToSpeech: Resource = {
	option: {
		name: 'Text to Speech',
		value: 'textToSpeech',
		description: 'Natural speech (MP3) from text, in a voice of your choice',
	},
	defaultOperation: 'synthesize',
	operations: [synthesize],
};
