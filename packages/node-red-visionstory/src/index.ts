/**
 * The bundle's entry: each node type's registration function, by type. Node-RED loads one small file
 * per node set (dist/<set>.js) that picks its function from here, so the API client is bundled once.
 */
import type { NodeAPI } from 'node-red';

import { registerAccount } from './nodes/account/account';
import { registerAiVideo } from './nodes/ai-video/ai-video';
import { registerAlign } from './nodes/align/align';
import { registerAsset } from './nodes/asset/asset';
import { registerAvatar } from './nodes/avatar/avatar';
import { registerConfig } from './nodes/config/config';
import { registerImage } from './nodes/image/image';
import { registerTalkingVideo } from './nodes/talking-video/talking-video';
import { registerTextToSpeech } from './nodes/text-to-speech/text-to-speech';
import { registerUnderstand } from './nodes/understand/understand';
import { registerVoice } from './nodes/voice/voice';
import { registerWatch } from './nodes/watch/watch';

/** Every node type, in palette order. */
export const nodes: Record<string, (RED: NodeAPI) => void> = {
	'visionstory-config': registerConfig,
	'visionstory-talking-video': registerTalkingVideo,
	'visionstory-ai-video': registerAiVideo,
	'visionstory-image': registerImage,
	'visionstory-text-to-speech': registerTextToSpeech,
	'visionstory-align': registerAlign,
	'visionstory-avatar': registerAvatar,
	'visionstory-voice': registerVoice,
	'visionstory-understand': registerUnderstand,
	'visionstory-asset': registerAsset,
	'visionstory-account': registerAccount,
	'visionstory-watch': registerWatch,
};
