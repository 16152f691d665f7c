import type { Resource } from '../../../shared/framework/action';
import { getCredits } from './getCredits.operation';

/** Account: its entry in the Resource picker and its operations, in the order the design lists them. */
export const account: Resource = {
	option: {
		name: 'Account',
		value: 'account',
		description: 'Your VisionStory account, e.g. the credits left',
	},
	defaultOperation: 'getCredits',
	operations: [getCredits],
};
