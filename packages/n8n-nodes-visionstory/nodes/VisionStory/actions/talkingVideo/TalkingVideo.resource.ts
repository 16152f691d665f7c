import type { Resource } from '../../../shared/framework/action';
import { check } from './check.operation';
import { create } from './create.operation';
import { remove } from './delete.operation';
import { get } from './get.operation';
import { getMany } from './getMany.operation';
import { listModels } from './listModels.operation';

/** Talking Video: its entry in the Resource picker and its operations, in the order the design lists them. */
export const talkingVideo: Resource = {
	option: {
		name: 'Talking Video',
		value: 'talkingVideo',
		description: 'An avatar speaking a script, as a video',
	},
	defaultOperation: 'create',
	operations: [create, check, get, getMany, remove, listModels],
};
