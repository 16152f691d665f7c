import type { IDataObject, INode } from 'n8n-workflow';

import type { VisionStoryClient } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/client';
import type { Harness, PollOptions, PollResult } from '../harness';
import { logListeners } from '../harness/logger';
import type { EngineContext } from './engine';
import { useEngine } from './engine';
import { createUndiciClient } from './undiciTransport';

/** How long a render takes on the trigger suites' emulator clock. */
export const RENDER_MS = 60_000;
/** Long enough for anything submitted before it to finish. */
export const FINISH = RENDER_MS + 5_000;

export type Kind = 'talkingVideo' | 'aiVideo';

export interface TriggerContext extends EngineContext {
	/** Makes tasks straight on the emulator, as another workflow or the VisionStory app would. */
	client: VisionStoryClient;
	modelId: string;
	avatarId: string;
	/** One poll of the active trigger from `staticData` (undefined: its activation), on `on`. */
	poll(
		staticData: IDataObject | undefined,
		parameters?: IDataObject,
		options?: PollOptions,
		on?: Harness,
	): Promise<PollResult>;
	/** A new task of `kind` saying `text`, made on the emulator; its id. */
	makeVideo(kind: Kind, text: string): Promise<string>;
}

/**
 * The trigger suites' emulator (a manual clock, followed by virtual time) and engine harness, a client
 * making tasks on it, an AI video model and a public avatar; the emulator is reset before each test.
 */
export function useTrigger(): TriggerContext {
	const context = useEngine({ clock: 'manual', renderMs: RENDER_MS }) as TriggerContext;
	beforeAll(async () => {
		const { emu } = context;
		context.client = createUndiciClient(emu.apiKey, {
			baseUrl: emu.baseUrl,
			retry: { baseDelayMs: 5, maxDelayMs: 40 },
		});
		context.modelId = (await context.client.listAiVideoModels()).models[0].model_id;
		context.avatarId = (
			await context.client.listAvatars({ is_public: true, limit: 1 })
		).avatars[0].avatar_id;
	});
	context.poll = async (staticData, parameters = {}, options = {}, on = context.harness) =>
		await on.poll(triggerNode(parameters), {
			credentials: context.credentials,
			staticData,
			mode: 'trigger',
			...options,
		});
	context.makeVideo = async (kind, text) =>
		kind === 'talkingVideo'
			? (
					await context.client.createTalkingVideo({
						avatar_id: context.avatarId,
						text_script: { text, voice_id: 'Alice' },
					})
				).video_id
			: (await context.client.createAiVideo({ model_id: context.modelId, prompt: text })).video_id;
	beforeEach(() => {
		context.emu.reset();
		context.emu.setConfig({ renderMs: RENDER_MS, aiConcurrencyCap: 1000 });
	});
	return context;
}

/** The trigger watching both kinds for created videos, without downloads; `parameters` change that. */
export function triggerNode(parameters: IDataObject = {}): INode {
	return {
		id: 'trigger-node-1',
		name: 'VisionStory Trigger',
		type: 'n8n-nodes-visionstory.visionStoryTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {
			events: ['talkingVideo', 'aiVideo'],
			statuses: ['created'],
			downloadResult: false,
			...parameters,
		},
		credentials: { visionStoryApi: { id: 'vsTriggerCred001', name: 'VisionStory account' } },
	};
}

/** The ids of the videos a poll emitted. */
export function emittedIds(result: PollResult): string[] {
	return (result.items?.[0] ?? []).map((item) => String(item.json.video_id));
}

/** The warnings n8n's logger got during the current test (emptied before each). */
export function useWarnings(): string[] {
	const warnings: string[] = [];
	const listen = (level: string, message: string) => {
		if (level === 'warn') warnings.push(message);
	};
	beforeAll(() => logListeners.add(listen));
	afterAll(() => logListeners.delete(listen));
	beforeEach(() => {
		warnings.length = 0;
	});
	return warnings;
}
