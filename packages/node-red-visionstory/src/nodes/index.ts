/** The action nodes' specs, in palette order: what the build and the tests read of every node. */
import { account } from './account/account';
import { aiVideo } from './ai-video/ai-video';
import { align } from './align/align';
import { asset } from './asset/asset';
import { avatar } from './avatar/avatar';
import { image } from './image/image';
import type { NodeSpec } from '../spec';
import { talkingVideo } from './talking-video/talking-video';
import { textToSpeech } from './text-to-speech/text-to-speech';
import { understand } from './understand/understand';
import { voice } from './voice/voice';

export const ACTION_NODES: readonly NodeSpec[] = [
	talkingVideo,
	aiVideo,
	image,
	textToSpeech,
	align,
	avatar,
	voice,
	understand,
	asset,
	account,
];
