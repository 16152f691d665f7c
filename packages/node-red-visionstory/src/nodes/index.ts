import type { NodeSpec } from '../spec';
import { account } from './account';
import { aiVideo } from './aiVideo';
import { align } from './align';
import { asset } from './asset';
import { avatar } from './avatar';
import { image } from './image';
import { talkingVideo } from './talkingVideo';
import { textToSpeech } from './textToSpeech';
import { understand } from './understand';
import { voice } from './voice';

/** The action nodes, in palette order. */
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
