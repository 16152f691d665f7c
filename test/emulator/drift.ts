/**
 * Drift mode: the answers a real service plausibly gives where the contract is silent or facts.md
 * says "guess", so the package is proven tolerant by construction. Off by default (config `drift`);
 * the error-body variations are a sub-option (`driftErrors`) so success paths can run under drift.
 * Everything here is deterministic: the same requests in the same order get the same answers.
 */
import type { ServerResponse } from 'node:http';

import type { ByteSource } from './byteStream';
import type { EmulatorState } from './state';
import { finishesAt } from './tasks';

/** How long a finished task shows the unknown, non-final status `moderating` before its real one. */
export const MODERATING_MS = 1500;
export const MODERATING_STATUS = 'moderating';

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** Answers whose shape the contract does not show (facts.md: guess or unknown): numbers there may come as strings. */
const GUESSED_SHAPES = new Set([
	'/api/v1/models',
	'/api/v1/image/models',
	'/api/v1/ai_video/models',
	'/api/v1/billing/credits',
	'/api/v1/audio/transcribe',
	'/api/v1/videos',
	'/api/v1/assets',
]);

/** Keys whose value belongs to the caller (understand's output follows the caller's schema): left as is. */
const CALLER_OWNED = new Set(['output']);

export class Drift {
	/** Turns of the "not shown" variations, so consecutive answers differ (null, absent, empty string). */
	private turn = 0;
	private blanks = 0;
	private numbers = 0;
	/** GET paths already answered once or twice under `driftErrors` (the first gets a 502, the second a 503). */
	private readonly failedGets = new Map<string, number>();
	private invalidCount = 0;

	constructor(private readonly state: EmulatorState) {}

	get on(): boolean {
		return this.state.config.drift;
	}

	reset(): void {
		this.turn = 0;
		this.blanks = 0;
		this.numbers = 0;
		this.failedGets.clear();
		this.invalidCount = 0;
	}

	/** The `data` of a JSON success answer, drifted. */
	data(path: string, data: unknown): unknown {
		if (!this.on || data === null || data === undefined) return data;
		let out: unknown = structuredClone(data);
		out = this.statuses(out);
		out = this.walk(out, GUESSED_SHAPES.has(path), 0);
		if (path === '/api/v1/image/models') out = imageModels(out);
		if (path === '/api/v1/ai_video/models') out = aiVideoModels(out);
		if (path === '/api/v1/models') out = talkingModels(out);
		return out;
	}

	/** Extra envelope fields a newer service may add. */
	envelope<T extends JsonObject>(body: T): T {
		return this.on
			? { ...body, request_id: `req_drift_${++this.turn}`, api_version: '2026-11-01' }
			: body;
	}

	/** Media links without a file extension (served as application/octet-stream): `/media/videos/<id>`, `/media/images/<name>`. */
	mediaUrl(url: unknown): unknown {
		if (!this.on || typeof url !== 'string') return url;
		return url.replace(/\/media\/(videos|images)\/([^/?#]+)\.(mp4|png)(?=$|[?#])/, '/media/$1/$2');
	}

	/** The path the media origin resolves for an extensionless drift link, and whether to label it octet-stream. */
	mediaPath(pathname: string): { pathname: string; octet: boolean } {
		const bare = /^\/media\/(videos|images)\/([^/.]+)$/.exec(pathname);
		if (!this.on || !bare) return { pathname, octet: false };
		return {
			pathname: `/media/${bare[1]}/${bare[2]}.${bare[1] === 'videos' ? 'mp4' : 'png'}`,
			octet: true,
		};
	}

	octet(source: ByteSource): ByteSource {
		return { ...source, type: 'application/octet-stream' };
	}

	/**
	 * Error bodies in the shapes real stacks send (`driftErrors`): 422 `details` as an array or a JSON
	 * string of an array of `{loc, msg, type}` with a null hint, 401 as plain text; and the first GET
	 * of each path answered by a proxy's HTML 502, the second by an empty 503 (then normal answers).
	 * Returns the status it answered with, or 0 when it left the request alone.
	 */
	errorBefore(method: string, path: string, res: ServerResponse): number {
		if (!this.on || !this.state.config.driftErrors || method !== 'GET') return 0;
		const seen = this.failedGets.get(path) ?? 0;
		if (seen >= 2) return 0;
		this.failedGets.set(path, seen + 1);
		if (seen === 0) {
			send(
				res,
				502,
				'text/html; charset=utf-8',
				'<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
			);
			return 502;
		}
		send(res, 503, undefined, '');
		return 503;
	}

	/** Rewrites an error envelope under `driftErrors`; returns true when it answered itself. */
	errorReply(
		status: number,
		body: unknown,
		res: ServerResponse,
		headers: Record<string, string>,
	): boolean {
		if (!this.on || !this.state.config.driftErrors) return false;
		if (status === 401) {
			send(
				res,
				401,
				'text/plain; charset=utf-8',
				'Unauthorized: invalid or missing API key',
				headers,
			);
			return true;
		}
		const error = isObject(body) && isObject(body.error) ? body.error : undefined;
		if (status === 422 && error && typeof error.details === 'string') {
			let fields: JsonObject = {};
			try {
				const parsed: unknown = JSON.parse(error.details);
				if (isObject(parsed)) fields = parsed;
			} catch {
				// not an object of fields: leave it
			}
			const list = Object.entries(fields).map(([field, msg]) => ({
				loc: ['body', ...field.split('.')],
				msg: String(msg),
				type: 'value_error',
			}));
			const details = ++this.invalidCount % 2 === 1 ? list : JSON.stringify(list);
			const payload = Buffer.from(JSON.stringify({ error: { ...error, details, hint: null } }));
			res.writeHead(422, {
				'Content-Type': 'application/json',
				'Content-Length': String(payload.length),
				...headers,
			});
			res.end(payload);
			return true;
		}
		return false;
	}

	/** A finished task shows `moderating` (and no links yet) for a while before its real status. */
	private statuses(data: unknown): unknown {
		const fix = (task: unknown): unknown => {
			if (!isObject(task) || typeof task.video_id !== 'string' || typeof task.status !== 'string')
				return task;
			const record = this.state.findTask(task.video_id);
			if (
				record &&
				(task.status === 'created' || task.status === 'failed') &&
				this.state.now() < finishesAt(record) + MODERATING_MS
			) {
				const { error: _error, ...rest } = task;
				return {
					...rest,
					status: MODERATING_STATUS,
					video_url: null,
					cover_url: null,
					cost_credit: record.price,
				};
			}
			return {
				...task,
				video_url: this.mediaUrl(task.video_url),
				...('cover_url' in task ? { cover_url: this.mediaUrl(task.cover_url) } : {}),
			};
		};
		if (isObject(data) && Array.isArray(data.videos))
			return { ...data, videos: data.videos.map(fix) };
		if (isObject(data) && typeof data.url === 'string')
			return { ...data, url: this.mediaUrl(data.url) };
		return fix(data);
	}

	/**
	 * Every object gains unknown fields; "not shown" parts (null or empty string) come as null, absent
	 * or empty string in turn; in answers whose shape is a guess, numbers come as numeric strings.
	 */
	private walk(value: unknown, numbersAsStrings: boolean, depth: number): unknown {
		if (Array.isArray(value)) return value.map((v) => this.walk(v, numbersAsStrings, depth + 1));
		if (typeof value === 'number' && numbersAsStrings && this.numbers++ % 2 === 0)
			return String(value);
		if (!isObject(value)) return value;
		const out: JsonObject = {};
		for (const [key, v] of Object.entries(value)) {
			if (CALLER_OWNED.has(key)) {
				out[key] = v;
				continue;
			}
			if (v === null || v === '') {
				const variant = this.blanks++ % 3;
				if (variant === 0) continue;
				out[key] = variant === 1 ? null : v === '' ? '' : null;
				continue;
			}
			out[key] = this.walk(v, numbersAsStrings, depth + 1);
		}
		out.x_drift_note = 'a field this package does not know';
		if (depth === 0) out.beta = { features: ['drift'], since: 1764000000 };
		return out;
	}
}

function send(
	res: ServerResponse,
	status: number,
	type: string | undefined,
	text: string,
	headers: Record<string, string> = {},
): void {
	const payload = Buffer.from(text);
	res.writeHead(status, {
		...(type ? { 'Content-Type': type } : {}),
		'Content-Length': String(payload.length),
		...headers,
	});
	res.end(payload);
}

function models(data: unknown): JsonObject[] | undefined {
	return isObject(data) && Array.isArray(data.models) ? (data.models as JsonObject[]) : undefined;
}

/**
 * Image models with odd entries: a boolean among a param's values, null defaults, a null price, a
 * param kind nobody knows, an entry without params, prices as strings. The ids stay, so every model
 * listed is still one the emulator renders with.
 */
function imageModels(data: unknown): unknown {
	const list = models(data);
	if (!list) return data;
	list.forEach((model, i) => {
		const params = isObject(model.params) ? model.params : {};
		const resolution = isObject(params.resolution) ? params.resolution : {};
		if (i % 3 === 0) {
			params.resolution = {
				...resolution,
				values: [...((resolution.values as unknown[]) ?? []), true],
				default: null,
			};
			params.seed = { kind: 'integer_range', range: [0, 4294967295] };
			params.style = { type: 'enum', options: [{ id: 'photo', label: 'Photo' }] };
			if (isObject(model.credit_by_resolution))
				model.credit_by_resolution = { ...model.credit_by_resolution, '8K': null };
		} else if (i % 3 === 1) {
			delete model.params;
		} else {
			params.aspect_ratio = { values: null, default: null };
			params.refs = { ...(isObject(params.refs) ? params.refs : {}), supported: 'yes' };
			model.credit_per_image = String(model.credit_per_image);
		}
	});
	return data;
}

/** AI video models with the same kinds of oddities, and media constraints in other shapes. */
function aiVideoModels(data: unknown): unknown {
	const list = models(data);
	if (!list) return data;
	list.forEach((model, i) => {
		const params = isObject(model.params) ? model.params : {};
		if (i % 4 === 0) {
			params.camera_motion = { kind: 'preset', presets: ['pan', 'zoom'], default: null };
			params.generate_audio = { supported: false, default: null };
			params.negative_prompt = true;
		} else if (i % 4 === 1) {
			delete model.params;
			model.media = null;
		} else if (i % 4 === 2) {
			const resolution = isObject(params.resolution) ? params.resolution : {};
			params.resolution = {
				...resolution,
				values: [...((resolution.values as unknown[]) ?? []), false, null],
				default: null,
			};
			model.media = { first_frame: true, refs: 'images only' };
		} else {
			model.params = 'see the documentation';
		}
	});
	return data;
}

/** Talking-video models: resolutions as one comma-separated string, is_default as text. */
function talkingModels(data: unknown): unknown {
	const list = models(data);
	if (!list) return data;
	list.forEach((model, i) => {
		if (i % 2 === 1 && Array.isArray(model.resolutions))
			model.resolutions = model.resolutions.join(',');
		if (typeof model.is_default === 'boolean') model.is_default = String(model.is_default);
	});
	return data;
}
