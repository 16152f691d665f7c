import type { Resource } from '../../../shared/framework/action';
import { clone } from './clone.operation';
import { remove } from './delete.operation';
import { getMany } from './getMany.operation';

/** Voice: its entry in the Resource picker and its operations, in the order the design lists them. */
export const voice: Resource = {
	option: {
		name: 'Voice',
		value: 'voice',
		description: 'Voices to speak scripts with: the public library and your clones',
	},
	defaultOperation: 'getMany',
	operations: [getMany, clone, remove],
};
