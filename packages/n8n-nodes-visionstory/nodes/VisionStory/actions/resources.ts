import type { Operation, Resource } from '../../shared/framework/action';
import { account } from './account/Account.resource';
import { aiVideo } from './aiVideo/AiVideo.resource';
import { align } from './align/Align.resource';
import { asset } from './asset/Asset.resource';
import { avatar } from './avatar/Avatar.resource';
import { image } from './image/Image.resource';
import { talkingVideo } from './talkingVideo/TalkingVideo.resource';
import { textToSpeech } from './textToSpeech/TextToSpeech.resource';
import { understand } from './understand/Understand.resource';
import { voice } from './voice/Voice.resource';

/**
 * Every resource of the node with its operations: the one list. The Resource and Operation pickers,
 * the parameters each operation shows, the subtitle, the outputs and the router all come from it.
 */
export const resources: readonly Resource[] = [
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

/** The resource the node starts on. */
export const DEFAULT_RESOURCE = talkingVideo.option.value;

/** The operation a saved node names, if the list has it. */
export function findOperation(resource: string, operation: string): Operation | undefined {
	return resources
		.find((r) => r.option.value === resource)
		?.operations.find((o) => o.option.value === operation);
}

/** "talkingVideo: create (Create), check (Check Status), …; aiVideo: …", for an error naming what is allowed. */
export function allowedOperations(): string {
	return resources
		.map(
			(r) =>
				`${r.option.value}: ${r.operations.map((o) => `${o.option.value} (${o.option.name})`).join(', ')}`,
		)
		.join('; ');
}
