import type { Resource } from '../../../shared/framework/action';
import { remove } from './delete.operation';
import { getMany } from './getMany.operation';
import { upload } from './upload.operation';

/** Asset: its entry in the Resource picker and its operations, in the order the design lists them. */
export const asset: Resource = {
	option: {
		name: 'Asset',
		value: 'asset',
		description: 'Files in your VisionStory asset library',
	},
	defaultOperation: 'upload',
	operations: [upload, getMany, remove],
};
