import type { Resource } from '../../../shared/framework/action';
import { create } from './create.operation';
import { remove } from './delete.operation';
import { getMany } from './getMany.operation';
import { updateFraming } from './updateFraming.operation';

/** Avatar: its entry in the Resource picker and its operations, in the order the design lists them. */
export const avatar: Resource = {
	option: {
		name: 'Avatar',
		value: 'avatar',
		description: 'The presenters of your talking videos',
	},
	defaultOperation: 'create',
	operations: [create, getMany, updateFraming, remove],
};
