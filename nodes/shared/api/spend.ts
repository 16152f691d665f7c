import type { Checked } from './client';
import { VisionStoryClient } from './client';
import type { OperationName, ResponseOf } from './contract';
import { VisionStoryError } from './errors';
import type { AudioResult, CallOptions } from './transport';

/**
 * The spend cap: what one execution has been charged, and a client that refuses a charged call
 * before sending it when the execution's spend would pass the cap. No n8n in here: the framework
 * keeps one ledger per execution and hands it to every node of that execution.
 */

/** The operations VisionStory charges for (on success only). */
export const CHARGED_OPERATIONS = [
	'createTalkingVideo',
	'createAiVideo',
	'generateImage',
	'synthesizeSpeech',
	'alignAudio',
	'transcribeAudio',
	'understandMedia',
] as const satisfies readonly OperationName[];
export type ChargedOperation = (typeof CHARGED_OPERATIONS)[number];

export function isCharged(name: string): name is ChargedOperation {
	return (CHARGED_OPERATIONS as readonly string[]).includes(name);
}

/** TTS: 2 credits per started 1000 characters (the contract's formula). */
export function speechPrice(characters: number): number {
	return 2 * Math.ceil(characters / 1000);
}

/**
 * What one execution was charged, by charge: a create the service replays for the same idempotency
 * key (n8n's Retry On Fail, a resend) lands on the same entry instead of adding to it.
 */
export class SpendLedger {
	private readonly charges = new Map<string, number>();
	/** Credits of charged calls under way, so calls running side by side cannot pass the cap together. */
	private reserved = 0;
	private sequence = 0;
	/** Calls of unknown price run one at a time: each must see what the one before it cost. */
	private queue: Promise<void> = Promise.resolve();
	/** Video ids this execution created, by charge key, to learn their cost when their status is read. */
	private readonly videos = new Map<string, string>();

	spent(): number {
		let total = 0;
		for (const credits of this.charges.values()) total += credits;
		return total;
	}

	/** Spent plus what calls under way may still cost. */
	committed(): number {
		return this.spent() + this.reserved;
	}

	has(key: string): boolean {
		return this.charges.has(key);
	}

	record(key: string, credits: number): void {
		this.charges.set(key, Math.max(0, credits));
	}

	newKey(operation: string): string {
		return `${operation}#${++this.sequence}`;
	}

	reserve(credits: number): () => void {
		this.reserved += credits;
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.reserved -= credits;
		};
	}

	/** Runs `work` after every call queued before it has finished. */
	async serialized<T>(work: () => Promise<T>): Promise<T> {
		const previous = this.queue;
		let done!: () => void;
		this.queue = new Promise<void>((resolve) => (done = resolve));
		try {
			await previous;
			return await work();
		} finally {
			done();
		}
	}

	trackVideo(videoId: string, key: string): void {
		this.videos.set(videoId, key);
	}

	/** A task read: the cost the service reports for a video this execution created replaces what was noted. */
	observeTask(task: { video_id?: unknown; cost_credit?: unknown }): void {
		const key = typeof task.video_id === 'string' ? this.videos.get(task.video_id) : undefined;
		if (key !== undefined && typeof task.cost_credit === 'number') this.record(key, task.cost_credit);
	}
}

/** The execution's cap and how charged calls are priced before they are sent. */
export interface SpendPolicy {
	/** Max Credits per Execution; undefined or 0: no cap. */
	cap?: number;
	/** Where the cap was set, to name it in the error (an option, or the credential). */
	capSource?: string;
}

export function spendCapError(operation: string, policy: SpendPolicy, spent: number, estimate: number | undefined, underWay = 0): VisionStoryError {
	const pending = underWay > 0 ? ` (and calls under way may cost ${underWay} more)` : '';
	const cost = estimate === undefined ? 'Its price is known only after the call, and the cap is reached' : `It would cost about ${estimate} credits`;
	return new VisionStoryError({
		category: 'validation',
		operation,
		message: `Max Credits per Execution (${policy.cap}) would be passed: this execution has spent ${spent} credits${pending}. ${cost}. Nothing was sent or charged.`,
		hint: `Raise Max Credits per Execution (${policy.capSource ?? 'node Options or the credential'}), or run the rest in a new execution.`,
		details: { maxCreditsPerExecution: policy.cap, creditsSpent: spent, estimatedCredits: estimate ?? null },
	});
}

/** Duration defaults of models without one in the request, by model id. */
function defaultDuration(models: ResponseOf<'listAiVideoModels'>, modelId: string): number | undefined {
	const model = models.models.find((m) => m.model_id === modelId);
	const spec = (model?.params?.duration_sec ?? model?.params?.duration) as { default?: unknown } | undefined;
	return typeof spec?.default === 'number' ? spec.default : undefined;
}

/**
 * A client that keeps the execution's ledger: every charged call is priced first where a price is
 * known (AI video cost endpoint, TTS formula, image model prices) and refused when it would pass the
 * cap; calls of unknown price (talking video, align, transcribe, understand) run one at a time and
 * are refused once the charges reported so far reach the cap.
 */
export class SpendingClient extends VisionStoryClient {
	private imageModels?: Promise<ResponseOf<'listImageModels'>>;
	private aiVideoModels?: Promise<ResponseOf<'listAiVideoModels'>>;
	/** AI video prices by model, duration and resolution: a batch, or a submission held for a slot, asks once. */
	private readonly aiVideoPrices = new Map<string, Promise<number>>();

	constructor(
		inner: VisionStoryClient,
		readonly ledger: SpendLedger,
		readonly policy: SpendPolicy,
	) {
		super(inner.transport);
	}

	get capped(): boolean {
		return (this.policy.cap ?? 0) > 0;
	}

	/**
	 * The price of one call before it is sent, or undefined where the service tells it only after.
	 * Only free calls are made to find it (the cost endpoint, the model lists).
	 */
	async estimate(name: OperationName, request: Record<string, unknown>, options?: CallOptions): Promise<number | undefined> {
		if (name === 'synthesizeSpeech') return speechPrice(String(request.text ?? '').length);
		if (name === 'generateImage') {
			this.imageModels ??= super.send('listImageModels', {} as Checked<'listImageModels'>, { signal: options?.signal });
			const model = (await this.imageModels).models.find((m) => m.model_id === request.model_id);
			const resolution = typeof request.resolution === 'string' ? request.resolution : undefined;
			const price = (resolution !== undefined ? model?.credit_by_resolution?.[resolution] : undefined) ?? model?.credit_per_image;
			return typeof price === 'number' ? price : undefined;
		}
		if (name === 'createAiVideo') {
			const modelId = String(request.model_id ?? '');
			let duration = typeof request.duration_sec === 'number' ? request.duration_sec : undefined;
			if (duration === undefined) {
				this.aiVideoModels ??= super.send('listAiVideoModels', {} as Checked<'listAiVideoModels'>, { signal: options?.signal });
				duration = defaultDuration(await this.aiVideoModels, modelId);
			}
			if (duration === undefined) return undefined;
			const resolution = (request.resolution as string | null | undefined) ?? undefined;
			const key = JSON.stringify([modelId, duration, resolution ?? null]);
			let price = this.aiVideoPrices.get(key);
			if (!price) {
				price = super
					.send('estimateAiVideoCost', { model_id: modelId, duration_sec: duration, resolution } as Checked<'estimateAiVideoCost'>, { signal: options?.signal })
					.then((cost) => cost.credit);
				// A failed estimate is asked again next time.
				price.catch(() => this.aiVideoPrices.delete(key));
				this.aiVideoPrices.set(key, price);
			}
			return await price;
		}
		return undefined;
	}

	/** Refuses when `credits` more would pass the cap (used for a whole long text before its first part). */
	ensureRoom(operation: string, credits: number): void {
		if (!this.capped) return;
		const committed = this.ledger.committed();
		const spent = this.ledger.spent();
		if (committed + credits > this.policy.cap!) throw spendCapError(operation, this.policy, spent, credits, committed - spent);
	}

	override async send<N extends OperationName>(name: N, request: Checked<N>, options?: CallOptions): Promise<ResponseOf<N>> {
		if (!isCharged(name)) {
			const response = await super.send(name, request, options);
			if (name === 'getTalkingVideo' || name === 'getAiVideo' || name === 'listTalkingVideos') this.observe(response);
			return response;
		}
		return await this.charged(name, request as Record<string, unknown>, options, async () => await super.send(name, request, options));
	}

	override async sendSpeech(request: Checked<'synthesizeSpeech'>, options?: CallOptions): Promise<AudioResult> {
		return await this.charged('synthesizeSpeech', request as Record<string, unknown>, options, async () => await super.sendSpeech(request, options));
	}

	private observe(response: unknown): void {
		const data = response as { videos?: unknown };
		const tasks = Array.isArray(data.videos) ? data.videos : [response];
		for (const task of tasks) if (task && typeof task === 'object') this.ledger.observeTask(task as { video_id?: unknown });
	}

	/** The ledger entry of a call: a create's idempotency key, so a replayed create is not counted twice. */
	private chargeKey(name: ChargedOperation, request: Record<string, unknown>, options?: CallOptions): string {
		if (name === 'createTalkingVideo' || name === 'createAiVideo') {
			const key = typeof request.client_request_id === 'string' ? request.client_request_id : options?.idempotencyContext;
			if (key) return `${name}:${key}`;
		}
		return this.ledger.newKey(name);
	}

	private async charged<T>(name: ChargedOperation, request: Record<string, unknown>, options: CallOptions | undefined, send: () => Promise<T>): Promise<T> {
		const key = this.chargeKey(name, request, options);
		// The service answers a replayed create with the task it already made and charges nothing new.
		const replay = this.ledger.has(key);
		const estimate = this.capped && !replay ? await this.estimate(name, request, options) : undefined;
		const run = async () => {
			const cost = replay ? 0 : (estimate ?? 1);
			const committed = this.ledger.committed();
			if (this.capped && committed + cost > this.policy.cap!) {
				const spent = this.ledger.spent();
				throw spendCapError(name, this.policy, spent, estimate, committed - spent);
			}
			const release = this.ledger.reserve(cost);
			try {
				const response = await send();
				await this.settle(name, key, response, replay ? undefined : estimate, options);
				return response;
			} finally {
				release();
			}
		};
		// Without a price, the next call has to wait for this one's reported charge.
		return this.capped && estimate === undefined && !replay ? await this.ledger.serialized(run) : await run();
	}

	private async settle(name: ChargedOperation, key: string, response: unknown, estimate: number | undefined, options?: CallOptions): Promise<void> {
		if (name === 'createTalkingVideo' || name === 'createAiVideo') {
			const videoId = (response as { video_id?: unknown }).video_id;
			if (typeof videoId !== 'string') return;
			this.ledger.trackVideo(videoId, key);
			if (!this.ledger.has(key)) this.ledger.record(key, estimate ?? 0);
			// The talking-video price is known only from the task: read it now, so the next call sees it.
			if (estimate === undefined && this.capped) {
				try {
					const read = { signal: options?.signal, budget: options?.budget };
					const task =
						name === 'createTalkingVideo'
							? await super.send('getTalkingVideo', { video_id: videoId } as Checked<'getTalkingVideo'>, read)
							: await super.send('getAiVideo', { video_id: videoId } as Checked<'getAiVideo'>, read);
					this.observe(task);
				} catch {
					// The video exists either way; its cost is learned at the next status read.
				}
			}
			return;
		}
		const reported = name === 'synthesizeSpeech' ? (response as AudioResult).metadata.cost_credit : (response as { cost_credit?: number | null }).cost_credit;
		this.ledger.record(key, typeof reported === 'number' ? reported : (estimate ?? 0));
	}
}
