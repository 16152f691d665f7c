import { ok, type Route } from '../router';
import { aiVideoRoutes } from './aiVideos';
import { assetRoutes } from './assets';
import { avatarRoutes } from './avatars';
import { imageRoutes } from './images';
import { speechRoutes } from './speech';
import { talkingVideoRoutes } from './talkingVideos';
import { understandRoutes } from './understand';
import { voiceRoutes } from './voices';

const billingRoutes: Route[] = [
	{
		method: 'GET',
		path: '/api/v1/billing/credits',
		handler: (ctx) => ok({ credits: ctx.account.credits, plan: 'pro' }),
	},
];

/** The 28 operations of the public API. */
export const apiRoutes: Route[] = [
	...talkingVideoRoutes,
	...aiVideoRoutes,
	...imageRoutes,
	...speechRoutes,
	...avatarRoutes,
	...voiceRoutes,
	...understandRoutes,
	...assetRoutes,
	...billingRoutes,
];
