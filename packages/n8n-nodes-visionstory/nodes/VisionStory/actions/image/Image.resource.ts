import type { Resource } from '../../../shared/framework/action';
import { generate } from './generate.operation';
import { listModels } from './listModels.operation';

/** Image: its entry in the Resource picker and its operations, in the order the design lists them. */
export const image: Resource = {
	option: {
		name: 'Image',
		value: 'image',
		description: 'An image generated or edited from a prompt',
	},
	defaultOperation: 'generate',
	operations: [generate, listModels],
};
