import type { Resource } from '../../../shared/framework/action';
import { check } from './check.operation';
import { create } from './create.operation';
import { remove } from './delete.operation';
import { estimateCost } from './estimateCost.operation';
import { get } from './get.operation';
import { getMany } from './getMany.operation';
import { listModels } from './listModels.operation';

/** AI Video: its entry in the Resource picker and its operations, in the order the design lists them. */
export const aiVideo: Resource = {
	option: {
		name: 'AI Video',
		value: 'aiVideo',
		description: 'A video generated from a prompt, frames and reference media',
	},
	defaultOperation: 'create',
	operations: [create, check, get, getMany, estimateCost, listModels, remove],
};
