import type { Resource } from '../../../shared/framework/action';
import { analyze } from './analyze.operation';

/** Understand (Media to JSON): its entry in the Resource picker and its operations, in the order the design lists them. */
export const understand: Resource = {
	option: {
		name: 'Understand (Media to JSON)',
		value: 'understand',
		description: 'Structured JSON from images, audio and video',
	},
	defaultOperation: 'analyze',
	operations: [analyze],
};
