import type { Checked, Draft, VisionStoryClient } from './client';
import { fieldsOf } from './client';
import type { AiVideoDto, EndpointName, RequestOf, ResponseOf } from './contract';
import { VisionStoryError } from './errors';
import type { AudioResult, CallOptions } from './exchange';
import type { Download } from './http';
import type { ChargedEndpoint, FloorHold, SpendLedger, SpendPolicy } from './spend';
import {
	alignPrice,
	isCharged,
	knownPrice,
	pricePendingError,
	spendCapError,
	speechPrice,
} from './spend';

/** A loose object: the credits answer, whose shape the contract does not show. */
type Loose = Record<string, unknown> | undefined;

function numberOf(value: unknown): number | undefined {
	const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/**
 * An image model's price for a tier: the tier asked for, else the model's default tier, from
 * `credit_by_resolution`, else `credit_per_image` (the price at the default tier).
 */
function imagePrice(
	list: ResponseOf<'listImageModels'>,
	modelId: unknown,
	resolution: unknown,
): number | undefined {
	const model = list.models.find((m) => m.model_id === modelId);
	if (!model) return undefined;
	const tier =
		typeof resolution === 'string' && resolution !== ''
			? resolution
			: model.params?.resolution?.default;
	const byTier = typeof tier === 'string' ? model.credit_by_resolution?.[tier] : undefined;
	return knownPrice(byTier ?? model.credit_per_image);
}

/** An AI video model's default duration, when the request leaves it out. */
function defaultDuration(
	list: ResponseOf<'listAiVideoModels'>,
	modelId: string,
): number | undefined {
	const params = list.models.find((m) => m.model_id === modelId)?.params;
	return numberOf(params?.duration_sec?.default ?? params?.duration?.default);
}

/** The account balance from the credits answer, whose shape the contract does not show. */
export function balanceOf(data: unknown): number | undefined {
	const source = data as Loose;
	for (const name of ['credits', 'balance', 'credit', 'remaining_credits', 'available_credits']) {
		const value = source?.[name];
		const n = numberOf(value) ?? numberOf((value as Loose)?.balance);
		if (n !== undefined) return n;
	}
	return undefined;
}

/** A cancel ends the run: it is thrown on; any other failure is left to the caller. */
function unlessAborted(error: unknown): void {
	if (error instanceof VisionStoryError && error.category === 'aborted') throw error;
}

/** The prices the contract gives as formulas: known without asking anything. */
function formulaPrice(
	name: EndpointName,
	request: Record<string, unknown>,
	options?: CallOptions,
): number | undefined {
	if (name === 'synthesizeSpeech') return speechPrice(String(request.text ?? '').length);
	if (name === 'alignAudio' && options?.audioSec !== undefined) return alignPrice(options.audioSec);
	return undefined;
}

/** A charged call whose 2xx answer could not be read was processed: it says so, and that it counts. */
function probablyCharged(error: VisionStoryError, price: number | undefined): VisionStoryError {
	const cost = price !== undefined ? ` (about ${price} credits)` : '';
	return error.with({
		message: `${error.message}. VisionStory answered with success, so the call was most likely processed and charged${cost}; it counts against the spend cap`,
		hint: `Check the result and your credits before running it again. ${error.hint ?? ''}`.trim(),
		mayHaveReachedService: true,
	});
}

/**
 * Whether a failed charged call may still have been charged: VisionStory answered success (a 2xx that
 * could not be read), or the answer was lost after the request reached it, whatever a resend was
 * answered afterwards (a 429, a 5xx). An error answer is not a success, and the service charges only
 * on success.
 */
function mayHaveBeenCharged(error: unknown): error is VisionStoryError {
	return (
		error instanceof VisionStoryError &&
		(error.category === 'response' ||
			error.mayHaveSucceeded === true ||
			(error.category === 'network' && error.mayHaveReachedService === true))
	);
}

/**
 * The client every operation is given: it wraps a `VisionStoryClient` and keeps the execution's
 * ledger, and every call goes through its `send`. A free call goes straight to the inner client (what
 * a task read shows of this execution's videos is noted). A charged call takes these steps, each
 * named below: its price is read first where one can be known before the call (the AI video cost
 * endpoint, the TTS and align formulas, the image model prices), the prices still unknown of earlier
 * calls are read from their tasks, the call is admitted against the cap and the balance floor (or
 * refused, nothing sent), sent through the inner client, and noted. Calls of unknown price (talking
 * video, transcribe, understand, voice clone, avatar) run one at a time, each only once every earlier
 * price is known and while the known spend is under the cap.
 */
export class SpendingClient {
	private imageModels?: Promise<ResponseOf<'listImageModels'>>;
	private aiVideoModels?: Promise<ResponseOf<'listAiVideoModels'>>;
	/** AI video prices by model, duration and resolution: a batch, or a submission held for a slot, asks once. */
	private readonly aiVideoPrices = new Map<string, Promise<number | undefined>>();

	constructor(
		private readonly inner: VisionStoryClient,
		readonly ledger: SpendLedger,
		readonly policy: SpendPolicy,
	) {}

	get capped(): boolean {
		return (this.policy.cap ?? 0) > 0;
	}

	/** Checks a request without sending it; throws the same error the call would. */
	validate<N extends EndpointName>(name: N, request: Draft<RequestOf<N>>): Checked<N> {
		return this.inner.validate(name, request);
	}

	/** Every call: a charged one priced, admitted and noted; a free one sent as it is. */
	async send<N extends EndpointName>(
		name: N,
		request: Checked<N>,
		options?: CallOptions,
	): Promise<ResponseOf<N>> {
		if (!isCharged(name)) {
			const response = await this.inner.send(name, request, options);
			if (name === 'getTalkingVideo' || name === 'getAiVideo' || name === 'listTalkingVideos')
				this.observe(response);
			return response;
		}
		return await this.charged(
			name,
			fieldsOf(request),
			options,
			async (call) => await this.inner.send(name, request, call),
		);
	}

	/** Text to Speech, whose answer is the audio itself: charged like every other charged call. */
	async synthesizeSpeech(
		request: Draft<RequestOf<'synthesizeSpeech'>>,
		options?: CallOptions,
	): Promise<AudioResult> {
		const checked = this.validate('synthesizeSpeech', request);
		return await this.charged(
			'synthesizeSpeech',
			fieldsOf(checked),
			options,
			async (call) => await this.inner.sendSpeech(checked, call),
		);
	}

	/** Up to 20 AI video tasks by id (the inner client's batch read); what they show of this execution's videos is noted. */
	async readAiVideos(
		ids: string[],
		options?: CallOptions,
	): Promise<Map<string, AiVideoDto | VisionStoryError>> {
		const read = await this.inner.readAiVideos(ids, options);
		for (const task of read.values())
			if (!(task instanceof VisionStoryError)) this.ledger.observeTask(task);
		return read;
	}

	async getAiVideo(request: { video_id: string }, options?: CallOptions): Promise<AiVideoDto> {
		const task = await this.inner.getAiVideo(request, options);
		this.ledger.observeTask(task);
		return task;
	}

	// Free reads the operations make by name.
	listTalkingVideoModels(options?: CallOptions) {
		return this.send('listTalkingVideoModels', {}, options);
	}
	listAiVideoModels(options?: CallOptions) {
		return this.send('listAiVideoModels', {}, options);
	}
	listImageModels(options?: CallOptions) {
		return this.send('listImageModels', {}, options);
	}
	listAvatars(request: RequestOf<'listAvatars'> = {}, options?: CallOptions) {
		return this.send('listAvatars', this.validate('listAvatars', request), options);
	}

	/** Waits with the host's sleep; ends early when the signal fires. */
	async sleep(ms: number, signal?: AbortSignal): Promise<void> {
		await this.inner.sleep(ms, signal);
	}

	/** Streams a result file (free). */
	async download(url: string, options?: CallOptions): Promise<Download> {
		return await this.inner.download(url, options);
	}

	private observe(response: unknown): void {
		const data = response as { videos?: unknown };
		const tasks = Array.isArray(data.videos) ? data.videos : [response];
		for (const task of tasks)
			if (task && typeof task === 'object') this.ledger.observeTask(task as { video_id?: unknown });
	}

	/**
	 * The price of one call before it is sent, or undefined where the service tells it only after, or
	 * quotes 0 (`knownPrice`), or a list that prices it cannot be read. Only free calls are made to find
	 * it: the image model list, the AI video model list (a default duration) and the cost endpoint.
	 */
	async estimate(
		name: EndpointName,
		request: Record<string, unknown>,
		options?: CallOptions,
	): Promise<number | undefined> {
		if (name === 'synthesizeSpeech' || name === 'alignAudio')
			return formulaPrice(name, request, options);
		const read = { signal: options?.signal };
		try {
			if (name === 'generateImage') {
				this.imageModels ??= this.inner.listImageModels(read);
				return imagePrice(await this.imageModels, request.model_id, request.resolution);
			}
			if (name === 'createAiVideo') return await this.aiVideoPrice(request, read);
		} catch (error) {
			// A price that cannot be read is unknown, not a failure; a cancel still ends the run.
			unlessAborted(error);
			if (name === 'generateImage') this.imageModels = undefined;
			return undefined;
		}
		return undefined;
	}

	private async aiVideoPrice(
		request: Record<string, unknown>,
		read: CallOptions,
	): Promise<number | undefined> {
		const modelId = String(request.model_id ?? '');
		let duration = numberOf(request.duration_sec);
		if (duration === undefined) {
			this.aiVideoModels ??= this.inner.listAiVideoModels(read);
			duration = defaultDuration(await this.aiVideoModels, modelId);
		}
		if (duration === undefined) return undefined;
		const resolution = (request.resolution as string | null | undefined) ?? undefined;
		const key = JSON.stringify([modelId, duration, resolution ?? null]);
		let price = this.aiVideoPrices.get(key);
		if (!price) {
			price = this.inner
				.estimateAiVideoCost({ model_id: modelId, duration_sec: duration, resolution }, read)
				.then((cost) => knownPrice(cost.credit));
			// A failed estimate is asked again next time.
			price.catch(() => this.aiVideoPrices.delete(key));
			this.aiVideoPrices.set(key, price);
		}
		return await price;
	}

	/**
	 * Several charged calls of known price admitted as one, before the first is sent (a long text's
	 * parts): refused whole when their total would pass the cap or the balance floor. Each call's
	 * price stays held against the floor until it is answered; the returned holds go into each
	 * call's options (`floorHold`), and a call never sent gives its hold back through it.
	 */
	async admitAll(
		endpoint: ChargedEndpoint,
		prices: number[],
		options?: CallOptions,
	): Promise<Array<() => void>> {
		const total = prices.reduce((sum, price) => sum + price, 0);
		if (this.capped) {
			const committed = this.ledger.committed();
			const spent = this.ledger.spent();
			if (committed + total > this.policy.cap!)
				throw spendCapError(endpoint, this.policy, spent, total, committed - spent);
		}
		const holds = await this.policy.floor?.admitAll(
			endpoint,
			prices,
			async () => await this.balance(options),
		);
		return holds ?? prices.map(() => () => undefined);
	}

	/**
	 * A charged call: its price read first, the prices still unknown of earlier calls read from their
	 * tasks, admitted against the cap (and the floor), sent, and noted with what it cost. A resend of a
	 * charge already noted (a create's key sent again) is not counted twice by the cap, but meets the
	 * floor like any send: it may be charged.
	 */
	private async charged<T>(
		name: ChargedEndpoint,
		request: Record<string, unknown>,
		options: CallOptions | undefined,
		send: (options: CallOptions) => Promise<T>,
	): Promise<T> {
		const key = this.chargeKey(name, request, options);
		// The service answers a replayed create with the task it already made and charges nothing new.
		const replay = this.ledger.has(key);
		const guarded = this.capped || this.policy.floor !== undefined;
		// Without a cap or floor, only prices that cost no request are worked out (formulas).
		const price =
			replay && this.policy.floor === undefined
				? undefined
				: guarded
					? await this.estimate(name, request, options)
					: formulaPrice(name, request, options);
		const run = async () => {
			// Only an unknown price waits on the earlier ones: it may be sent only once they are known.
			if (this.capped && !replay && price === undefined && this.ledger.unknown() > 0)
				await this.learnPrices(options);
			const admitted = await this.admit(name, key, replay ? undefined : price, options, {
				replay,
				floorPrice: price,
			});
			try {
				const response = await send({ ...options, beforeResend: admitted.recheck });
				this.settle(name, key, response, price);
				admitted.release('settled');
				return response;
			} catch (error) {
				admitted.release(mayHaveBeenCharged(error) ? 'uncertain' : 'settled');
				throw this.failed(key, name, price, error);
			}
		};
		// Without a price, the next call has to wait for this one's reported charge.
		if (!guarded || price !== undefined || replay) return await run();
		await this.ledger.unknownPriceSlot.take();
		try {
			return await run();
		} finally {
			this.ledger.unknownPriceSlot.give();
		}
	}

	/** Reads the tasks whose price is still unknown: a read that fails leaves it unknown. */
	private async learnPrices(options?: CallOptions): Promise<void> {
		for (const { endpoint, videoId } of this.ledger.unknownVideos()) {
			try {
				const read = { signal: options?.signal, budget: options?.budget };
				if (endpoint === 'createTalkingVideo')
					this.ledger.observeTask(await this.inner.getTalkingVideo({ video_id: videoId }, read));
				else await this.readAiVideos([videoId], read);
			} catch (error) {
				unlessAborted(error);
			}
		}
	}

	/** The ledger entry of a call: a create's idempotency key, so a replayed create is not counted twice. */
	private chargeKey(
		name: ChargedEndpoint,
		request: Record<string, unknown>,
		options?: CallOptions,
	): string {
		if (name === 'createTalkingVideo' || name === 'createAiVideo') {
			const key =
				typeof request.client_request_id === 'string'
					? request.client_request_id
					: options?.idempotencyContext;
			if (key) return `${name}:${key}`;
		}
		return this.ledger.newKey(name);
	}

	/** The balance, for Keep at Least N Credits: a free call. */
	private async balance(options?: CallOptions): Promise<number | undefined> {
		return balanceOf(
			await this.inner.getCredits({ signal: options?.signal, budget: options?.budget }),
		);
	}

	/**
	 * Refuses a call the cap or the floor does not allow; otherwise holds its price until it is
	 * answered. A replay is past the cap already (its charge is noted); the floor sees every send.
	 */
	private async admit(
		name: ChargedEndpoint,
		key: string,
		price: number | undefined,
		options: CallOptions | undefined,
		{ replay, floorPrice }: { replay: boolean; floorPrice: number | undefined },
	): Promise<FloorHold> {
		if (this.capped && !replay) {
			const cap = this.policy.cap!;
			const spent = this.ledger.spent();
			const committed = this.ledger.committed();
			if (price === undefined && this.ledger.unknown() > 0) {
				const videos = this.ledger.unknownVideos().map((v) => v.videoId);
				throw pricePendingError(name, this.policy, spent, videos);
			}
			// A call of unknown price may go while the known spend is under the cap: it may end above it.
			if (price === undefined ? committed >= cap : committed + price > cap)
				throw spendCapError(name, this.policy, spent, price, committed - spent);
		}
		const reservation = replay ? () => undefined : this.ledger.reserve(price);
		let admitted = false;
		try {
			// A price held already (a part of a text admitted whole) is checked without adding it twice.
			const floor = await this.policy.floor?.admit(
				name,
				options?.floorHold ? 0 : floorPrice,
				async () => await this.balance(options),
				// Only a create's key names the same charge in every execution; other keys are the ledger's own.
				name === 'createTalkingVideo' || name === 'createAiVideo' ? key : undefined,
			);
			admitted = true;
			return {
				recheck: async () => await floor?.recheck(),
				release: (outcome) => {
					reservation();
					floor?.release(outcome);
					options?.floorHold?.();
				},
			};
		} finally {
			if (!admitted) reservation();
		}
	}

	/** A charged call's failure, noted as charged where it may have been, and saying so. */
	private failed(key: string, name: ChargedEndpoint, price: number | undefined, error: unknown) {
		if (!mayHaveBeenCharged(error)) return error;
		this.ledger.note(key, name, price);
		return error.category === 'response' ? probablyCharged(error, price) : error;
	}

	private settle(name: ChargedEndpoint, key: string, response: unknown, price?: number): void {
		this.ledger.note(key, name, price);
		if (name === 'createTalkingVideo' || name === 'createAiVideo') {
			const videoId = (response as { video_id?: unknown }).video_id;
			if (typeof videoId === 'string') this.ledger.trackVideo(videoId, key);
			return;
		}
		const reported =
			name === 'synthesizeSpeech'
				? (response as AudioResult).metadata.cost_credit
				: (response as { cost_credit?: unknown }).cost_credit;
		this.ledger.report(key, reported);
	}
}
