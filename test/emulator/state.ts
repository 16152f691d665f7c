import type { Clock } from './clock';
import { Ledger } from './ledger';
import { newestFirst } from './pagination';
import {
	avatarImageUrl,
	publicAvatars,
	publicVoices,
	type AvatarDto,
	type AvatarFraming,
	type VoiceDto,
} from './seed';
import { finishesAt, type Task } from './tasks';
import type { EmulatorConfig, EmulatorOptions } from './types';
import { TALKING_ASPECT_RATIOS } from './models';

export const DEFAULT_API_KEY = 'sk-vs-emulator-default-0000000000';
export const DEFAULT_CREDITS = 10_000;
const DAY_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_WINDOW_MS = DAY_MS;
export const RETENTION_MS = 7 * DAY_MS;
/** Maximum zoom given to avatars created through the API ("dynamic" in the service; fixed here). */
export const AVATAR_MAX_ZOOM = 3;

export interface OwnAvatar {
	dto: AvatarDto & { framing: AvatarFraming[] };
	seq: number;
	maxZoom: number;
}

export interface AssetDto {
	asset_id: string;
	kind: 'image' | 'audio' | 'video';
	mime: string;
	width: number;
	height: number;
	duration_sec: number;
	created_at: number;
}

export interface AssetRecord {
	dto: AssetDto;
	seq: number;
}

export interface OwnVoice {
	dto: VoiceDto;
	seq: number;
}

export interface IdempotencyEntry {
	videoId: string;
	arrivedAt: number;
}

export interface Account {
	id: string;
	apiKey: string;
	initialCredits: number;
	credits: number;
	talkingVideos: Map<string, Task>;
	aiVideos: Map<string, Task>;
	avatars: Map<string, OwnAvatar>;
	voices: Map<string, OwnVoice>;
	assets: Map<string, AssetRecord>;
	/** Keyed by `<task kind>:<client_request_id>`. */
	idempotency: Map<string, IdempotencyEntry>;
}

const TALKING_VIDEO_LISTS: ReadonlyArray<EmulatorConfig['talkingVideoList']> = [
	'paged',
	'ignoresCursor',
	'idsOnly',
	'absent',
];

export function initialConfig(options: EmulatorOptions): EmulatorConfig {
	const renderMs = options.renderMs ?? 3000;
	return {
		renderMs,
		queueMs: options.queueMs ?? Math.min(500, renderMs / 4),
		aiConcurrencyCap: options.aiConcurrencyCap ?? 3,
		registerMs: options.registerMs ?? 0,
		videoBytes: 0,
		concurrencyDetailsAsString: false,
		redirectMedia: false,
		drift: options.drift ?? false,
		driftErrors: false,
		rateLimitPerSecond: 0,
		talkingVideoList: 'paged',
		lateCost: false,
		videoUrlDelayMs: 0,
		createdAtSkewSeconds: 0,
		oddWordTimings: false,
	};
}

/** Accounts, their resources and the public libraries: everything a request can read or change. */
export class EmulatorState {
	readonly ledger = new Ledger();
	readonly publicVoices: VoiceDto[];
	readonly publicAvatars: AvatarDto[];
	config: EmulatorConfig;
	private queueMsExplicit: boolean;
	private accounts = new Map<string, Account>();
	private seq = 0;

	constructor(
		readonly clock: Clock,
		readonly mediaBaseUrl: string,
		private readonly options: EmulatorOptions,
		readonly apiBaseUrl = mediaBaseUrl,
	) {
		this.config = initialConfig(options);
		this.queueMsExplicit = options.queueMs !== undefined;
		this.publicVoices = publicVoices(mediaBaseUrl);
		this.publicAvatars = publicAvatars(mediaBaseUrl, this.publicVoices);
		const seeded = options.accounts?.length
			? options.accounts
			: [{ apiKey: DEFAULT_API_KEY, credits: DEFAULT_CREDITS }];
		for (const a of seeded) this.addAccount(a.apiKey, a.credits);
	}

	now(): number {
		return this.clock.now();
	}

	/** Where links to rendered and generated media point: the media origin, or the API origin that redirects there. */
	mediaLinkBase(): string {
		return this.config.redirectMedia ? this.apiBaseUrl : this.mediaBaseUrl;
	}

	nextSeq(): number {
		return ++this.seq;
	}

	/** Adding a key that exists sets its balance instead, so suites can call this in every beforeEach. */
	addAccount(apiKey: string, credits: number): Account {
		const existing = this.accounts.get(apiKey);
		if (existing) {
			existing.credits = credits;
			existing.initialCredits = credits;
			return existing;
		}
		const account = this.freshAccount(`acct_${this.accounts.size + 1}`, apiKey, credits);
		this.accounts.set(apiKey, account);
		return account;
	}

	accountByKey(apiKey: string | undefined): Account | undefined {
		return apiKey === undefined ? undefined : this.accounts.get(apiKey);
	}

	accountById(id: string): Account | undefined {
		return [...this.accounts.values()].find((a) => a.id === id);
	}

	allAccounts(): Account[] {
		return [...this.accounts.values()];
	}

	setConfig(change: Partial<EmulatorConfig>): void {
		for (const [key, value] of Object.entries(change)) {
			if (!(key in this.config)) throw new Error(`unknown config key: ${key}`);
			const expected = typeof this.config[key as keyof EmulatorConfig];
			if (typeof value !== expected) throw new Error(`config ${key} must be a ${expected}`);
			if (typeof value === 'number' && (!Number.isFinite(value) || value < 0))
				throw new Error(`config ${key} must be >= 0`);
			if (key === 'talkingVideoList' && !TALKING_VIDEO_LISTS.includes(value as never))
				throw new Error(`config talkingVideoList must be one of ${TALKING_VIDEO_LISTS.join(', ')}`);
		}
		if (change.queueMs !== undefined) this.queueMsExplicit = true;
		this.config = { ...this.config, ...change };
		if (change.renderMs !== undefined && !this.queueMsExplicit)
			this.config.queueMs = Math.min(500, change.renderMs / 4);
	}

	/** Looks a rendered video up across accounts, for the media origin, which has no key to go by. */
	findTask(videoId: string): Task | undefined {
		for (const a of this.accounts.values()) {
			const task = a.talkingVideos.get(videoId) ?? a.aiVideos.get(videoId);
			if (task) return task;
		}
		return undefined;
	}

	/**
	 * Books what the clock says has happened since the last look: refunds of tasks that reached failed
	 * (dated when they failed, in that order) and the expiry of talking videos past retention.
	 */
	settle(): void {
		const now = this.now();
		const due: Array<{ account: Account; task: Task }> = [];
		for (const account of this.accounts.values()) {
			for (const task of [...account.talkingVideos.values(), ...account.aiVideos.values()]) {
				if (!task.settled && finishesAt(task) <= now) due.push({ account, task });
			}
			for (const task of account.talkingVideos.values()) {
				if (task.settled && finishesAt(task) + RETENTION_MS <= now)
					account.talkingVideos.delete(task.video_id);
			}
		}
		due.sort((x, y) => finishesAt(x.task) - finishesAt(y.task));
		for (const { account, task } of due) {
			task.settled = true;
			if (task.willFail && !task.refunded) {
				task.refunded = true;
				this.ledger.refund(account, finishesAt(task), operationOf(task), task.price, task.video_id);
			}
		}
	}

	/** Back to the seeded state: every account keeps its key and id, with its starting credits and nothing else. */
	reset(): void {
		this.ledger.clear();
		this.config = initialConfig(this.options);
		this.queueMsExplicit = this.options.queueMs !== undefined;
		for (const [key, account] of this.accounts)
			this.accounts.set(key, this.freshAccount(account.id, key, account.initialCredits));
	}

	private freshAccount(id: string, apiKey: string, credits: number): Account {
		const account: Account = {
			id,
			apiKey,
			initialCredits: credits,
			credits,
			talkingVideos: new Map(),
			aiVideos: new Map(),
			avatars: new Map(),
			voices: new Map(),
			assets: new Map(),
			idempotency: new Map(),
		};
		const legacy = this.legacyAvatar(id);
		account.avatars.set(legacy.dto.avatar_id, legacy);
		return account;
	}

	/** Made before framing existed: its framing entries have no zoom or offsets and cannot be adjusted. */
	private legacyAvatar(accountId: string): OwnAvatar {
		const avatar_id = `legacy_${accountId}`;
		const createdAt = Math.floor((this.now() - 400 * DAY_MS) / 1000);
		return {
			seq: this.nextSeq(),
			maxZoom: AVATAR_MAX_ZOOM,
			dto: {
				avatar_id,
				thumbnail_url: avatarImageUrl(this.mediaBaseUrl, `avatar-${avatar_id}`),
				aspect_ratios: [...TALKING_ASPECT_RATIOS],
				created_at: createdAt,
				default_voice_id: 'Alice',
				framing: TALKING_ASPECT_RATIOS.map((aspect_ratio) => ({
					aspect_ratio,
					zoom: null,
					offset_x: null,
					offset_y: null,
					image_url: avatarImageUrl(
						this.mediaBaseUrl,
						`avatar-${avatar_id}-${aspect_ratio.replace(':', 'x')}`,
					),
				})),
			},
		};
	}
}

export function operationOf(task: Task): string {
	return task.kind === 'talkingVideo' ? 'talking_video' : 'ai_video';
}

export function tasksOf(account: Account, kind: 'talkingVideo' | 'aiVideo'): Task[] {
	return newestFirst(
		(kind === 'talkingVideo' ? account.talkingVideos : account.aiVideos).values(),
		(t) => t.seq,
	);
}
