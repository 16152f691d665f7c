import type { z } from 'zod/v3';

import type { AiVideoDto, EndpointName, Endpoints, RequestOf, ResponseOf } from './contract';
import { AI_VIDEO_BATCH_MAX, AiVideoDto as AiVideoSchema, Empty, endpoints } from './contract';
import type { FieldIssue } from './errors';
import { invalidInput, VisionStoryError } from './errors';
import type { AudioResult, CallOptions, Exchange } from './exchange';
import type { Download } from './http';

/** A checked request's fields by name, as the exchange sends them (a copy, so nothing can change the checked one). */
export function fieldsOf(request: object): Record<string, unknown> {
	return Object.fromEntries(Object.entries(request));
}

/** Turns zod's issues into field paths the user can act on. */
export function fieldIssues(error: z.ZodError): FieldIssue[] {
	return error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
}

/** What zod says of one answer field: missing, present with another type, or another problem. */
function describeIssue(issue: z.ZodIssue): string {
	const field = issue.path.join('.') || 'data';
	if (issue.code === 'invalid_type') {
		return issue.received === 'undefined'
			? `is missing ${field}`
			: `${field} has an unexpected type: got ${issue.received}`;
	}
	return `${field} ${issue.message}`;
}

/** An answer the client cannot read where the contract states its shape; names each field and what was wrong with it. */
export function unreadableAnswer(
	endpoint: string,
	error?: z.ZodError,
	missing?: string,
	videoId?: string,
): VisionStoryError {
	const described = error ? error.issues.map(describeIssue) : [`is missing ${missing ?? 'data'}`];
	const missingOnly = described.every((d) => d.startsWith('is missing '));
	const subject = `VisionStory's answer to ${endpoint}${videoId ? ` for ${videoId}` : ''}`;
	const message = missingOnly
		? `${subject} is missing ${described.map((d) => d.slice('is missing '.length)).join(', ')}`
		: `${subject}: ${described.map((d) => (d.startsWith('is missing ') ? `${d.slice('is missing '.length)} is missing` : d)).join('; ')}`;
	return new VisionStoryError({
		category: 'response',
		operation: endpoint,
		message,
		hint: 'The service may have changed. Please report this to the n8n-nodes-visionstory maintainers.',
		...(videoId ? { videoIds: [videoId] } : {}),
	});
}

/** The batch form answers { videos: [...] }; a service that answers one id with the task itself is read the same way. */
function batchEntries(data: unknown): unknown[] {
	if (!data || typeof data !== 'object' || !('videos' in data)) return [data];
	const videos = (data as { videos: unknown }).videos;
	if (!Array.isArray(videos)) throw unreadableAnswer('getAiVideo', undefined, 'videos');
	return videos;
}

/**
 * A request as a node assembles it from parameters, before it is checked: values the contract narrows
 * (a choice among strings) may be any string here; `validate` checks them and names what is allowed.
 */
export type Draft<T> = T extends string
	? string
	: T extends number | boolean | null | undefined
		? T
		: T extends ReadonlyArray<infer U>
			? Array<Draft<U>>
			: T extends object
				? { [K in keyof T]: Draft<T[K]> }
				: T;

export type Checked<N extends EndpointName> = z.output<Endpoints[N]['request']> & {
	readonly __checked?: N;
};

/**
 * One typed method per VisionStory endpoint. Requests are validated against the contract before
 * anything is sent; responses are parsed tolerantly (unknown fields kept).
 */
export class VisionStoryClient {
	constructor(readonly exchange: Exchange) {}

	/** Checks a request without sending it; throws the same error the call would. */
	validate<N extends EndpointName>(name: N, request: Draft<RequestOf<N>>): Checked<N> {
		// Endpoints without parameters are called often (credits, model lists): nothing to check.
		const schema: z.ZodType<Checked<N>, z.ZodTypeDef, unknown> = endpoints[name].request;
		if (schema === Empty && Object.keys(request).length === 0) return {};
		const parsed = schema.safeParse(request);
		if (!parsed.success) throw invalidInput(name, fieldIssues(parsed.error));
		return parsed.data;
	}

	/** Any JSON endpoint by name: checked, then sent. The typed methods below are the usual way in. */
	async call<N extends EndpointName>(
		name: N,
		request: Draft<RequestOf<N>>,
		options?: CallOptions,
	): Promise<ResponseOf<N>> {
		return await this.send(name, this.validate(name, request), options);
	}

	/** Sends a request that `validate` already checked. */
	async send<N extends EndpointName>(
		name: N,
		request: Checked<N>,
		options?: CallOptions,
	): Promise<ResponseOf<N>> {
		return this.parse(name, await this.sendRaw(name, request, options));
	}

	/**
	 * Sends a checked request and returns the answer's `data` unparsed, for a caller that reads it
	 * entry by entry (a list whose entries may lack what the contract shows, a batch read).
	 */
	async sendRaw<N extends EndpointName>(
		name: N,
		request: Checked<N>,
		options?: CallOptions,
	): Promise<unknown> {
		return await this.exchange.send(name, endpoints[name], fieldsOf(request), options);
	}

	/** Waits with the host's sleep (n8n's in the nodes); ends early when the signal fires. */
	async sleep(ms: number, signal?: AbortSignal): Promise<void> {
		await this.exchange.sleep(ms, signal);
	}

	private unexpected(name: string, what: string): VisionStoryError {
		return new VisionStoryError({
			category: 'response',
			operation: name,
			message: `VisionStory's answer to ${name} is not ${what}`,
			hint: 'The service may have changed. Please report this to the n8n-nodes-visionstory maintainers.',
		});
	}

	private parse<N extends EndpointName>(name: N, data: unknown): ResponseOf<N> {
		const parsed = endpoints[name].response.safeParse(data);
		if (!parsed.success) throw unreadableAnswer(name, parsed.error);
		return parsed.data as ResponseOf<N>;
	}

	// Talking video
	createTalkingVideo(request: RequestOf<'createTalkingVideo'>, options?: CallOptions) {
		return this.call('createTalkingVideo', request, options);
	}
	getTalkingVideo(request: RequestOf<'getTalkingVideo'>, options?: CallOptions) {
		return this.call('getTalkingVideo', request, options);
	}
	listTalkingVideos(request: RequestOf<'listTalkingVideos'> = {}, options?: CallOptions) {
		return this.call('listTalkingVideos', request, options);
	}
	deleteTalkingVideo(request: RequestOf<'deleteTalkingVideo'>, options?: CallOptions) {
		return this.call('deleteTalkingVideo', request, options);
	}
	listTalkingVideoModels(options?: CallOptions) {
		return this.call('listTalkingVideoModels', {}, options);
	}

	// AI video
	createAiVideo(request: RequestOf<'createAiVideo'>, options?: CallOptions) {
		return this.call('createAiVideo', request, options);
	}
	async getAiVideo(request: { video_id: string }, options?: CallOptions): Promise<AiVideoDto> {
		const data = await this.call('getAiVideo', request, options);
		if ('videos' in data && Array.isArray(data.videos))
			throw this.unexpected('getAiVideo', 'a single video');
		return data as AiVideoDto;
	}
	/** Up to 20 tasks in one call; ids that do not exist or belong to another account, or whose entry cannot be read, are left out. */
	async getAiVideos(
		request: { video_ids: string[] },
		options?: CallOptions,
	): Promise<AiVideoDto[]> {
		const read = await this.readAiVideos(request.video_ids, options);
		return [...read.values()].filter((v): v is AiVideoDto => !(v instanceof VisionStoryError));
	}

	/**
	 * Up to 20 tasks in one call, by id: each entry is read on its own, so one the client cannot read
	 * becomes that id's error and the others are kept. Ids the service left out are absent.
	 */
	async readAiVideos(
		ids: string[],
		options?: CallOptions,
	): Promise<Map<string, AiVideoDto | VisionStoryError>> {
		if (ids.length > AI_VIDEO_BATCH_MAX) {
			throw invalidInput('getAiVideo', [
				{
					field: 'video_ids',
					message: `has ${ids.length} ids; at most ${AI_VIDEO_BATCH_MAX} per call`,
				},
			]);
		}
		const request = this.validate('getAiVideo', { video_ids: ids });
		const entries = batchEntries(await this.sendRaw('getAiVideo', request, options));
		const read = new Map<string, AiVideoDto | VisionStoryError>();
		for (const entry of entries) {
			const id = (entry as { video_id?: unknown } | null)?.video_id;
			const key = typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
			if (key === undefined) continue;
			const parsed = AiVideoSchema.safeParse(entry);
			read.set(
				key,
				parsed.success ? parsed.data : unreadableAnswer('getAiVideo', parsed.error, undefined, key),
			);
		}
		return read;
	}
	listAiVideos(request: RequestOf<'listAiVideos'> = {}, options?: CallOptions) {
		return this.call('listAiVideos', request, options);
	}
	estimateAiVideoCost(request: RequestOf<'estimateAiVideoCost'>, options?: CallOptions) {
		return this.call('estimateAiVideoCost', request, options);
	}
	listAiVideoModels(options?: CallOptions) {
		return this.call('listAiVideoModels', {}, options);
	}
	deleteAiVideo(request: RequestOf<'deleteAiVideo'>, options?: CallOptions) {
		return this.call('deleteAiVideo', request, options);
	}

	// Image
	generateImage(request: RequestOf<'generateImage'>, options?: CallOptions) {
		return this.call('generateImage', request, options);
	}
	listImageModels(options?: CallOptions) {
		return this.call('listImageModels', {}, options);
	}

	// Speech
	/** The MP3 comes back as a stream, with duration, characters and cost from the response headers. */
	async synthesizeSpeech(
		request: RequestOf<'synthesizeSpeech'>,
		options?: CallOptions,
	): Promise<AudioResult> {
		return await this.sendSpeech(this.validate('synthesizeSpeech', request), options);
	}
	/** The body is the audio itself, not the envelope: nothing to parse. */
	async sendSpeech(
		request: Checked<'synthesizeSpeech'>,
		options?: CallOptions,
	): Promise<AudioResult> {
		return (await this.sendRaw('synthesizeSpeech', request, options)) as AudioResult;
	}
	alignAudio(request: RequestOf<'alignAudio'>, options?: CallOptions) {
		return this.call('alignAudio', request, options);
	}
	transcribeAudio(request: RequestOf<'transcribeAudio'>, options?: CallOptions) {
		return this.call('transcribeAudio', request, options);
	}

	// Avatars
	createAvatar(request: RequestOf<'createAvatar'>, options?: CallOptions) {
		return this.call('createAvatar', request, options);
	}
	listAvatars(request: RequestOf<'listAvatars'> = {}, options?: CallOptions) {
		return this.call('listAvatars', request, options);
	}
	updateAvatarFraming(request: RequestOf<'updateAvatarFraming'>, options?: CallOptions) {
		return this.call('updateAvatarFraming', request, options);
	}
	deleteAvatar(request: RequestOf<'deleteAvatar'>, options?: CallOptions) {
		return this.call('deleteAvatar', request, options);
	}

	// Voices
	listVoices(request: RequestOf<'listVoices'> = {}, options?: CallOptions) {
		return this.call('listVoices', request, options);
	}
	cloneVoice(request: RequestOf<'cloneVoice'>, options?: CallOptions) {
		return this.call('cloneVoice', request, options);
	}
	deleteVoice(request: RequestOf<'deleteVoice'>, options?: CallOptions) {
		return this.call('deleteVoice', request, options);
	}

	// Media understanding
	understandMedia(request: RequestOf<'understandMedia'>, options?: CallOptions) {
		return this.call('understandMedia', request, options);
	}

	// Assets
	uploadAsset(request: RequestOf<'uploadAsset'>, options?: CallOptions) {
		return this.call('uploadAsset', request, options);
	}
	listAssets(request: RequestOf<'listAssets'> = {}, options?: CallOptions) {
		return this.call('listAssets', request, options);
	}
	deleteAsset(request: RequestOf<'deleteAsset'>, options?: CallOptions) {
		return this.call('deleteAsset', request, options);
	}

	// Billing
	getCredits(options?: CallOptions) {
		return this.call('getCredits', {}, options);
	}

	/** Streams a result file (video, image, audio); the API key goes only to the API's own origin. */
	download(url: string, options?: CallOptions): Promise<Download> {
		return this.exchange.download(url, options);
	}
}
