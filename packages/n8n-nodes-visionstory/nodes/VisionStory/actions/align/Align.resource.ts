import type { Resource } from '../../../shared/framework/action';
import { align as alignOperation } from './align.operation';
import { transcribe } from './transcribe.operation';

/** Align (Word Timings, Transcription): its entry in the Resource picker and its operations, in the order the design lists them. */
export const align: Resource = {
	option: {
		name: 'Align (Word Timings, Transcription)',
		value: 'align',
		description: 'Word timings, subtitles and transcripts from speech',
	},
	defaultOperation: 'align',
	operations: [alignOperation, transcribe],
};
