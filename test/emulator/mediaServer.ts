import type { IncomingMessage, ServerResponse } from 'node:http';
import { keyPresence } from './apiServer';
import { bufferSource, generatedSource, sendSource, type ByteSource } from './byteStream';
import { ApiError } from './errors';
import type { Drift } from './drift';
import type { FaultInjector } from './faults';
import { sendFaultResponse } from './faults';
import { FIXTURES, type FixtureName } from './fixtures';
import { queryObject, resetConnection, sendJson } from './http';
import type { RequestLog } from './requestLog';
import type { EmulatorState } from './state';
import type { FaultKind } from './types';
import { statusAt } from './tasks';

const INJECTED_STATUS: Partial<Record<FaultKind, number>> = {
	http500: 500,
	http503: 503,
	http429: 429,
	http409: 409,
	http403: 403,
	http404: 404,
};

/** Largest blob the media origin makes up: enough for the 1 GiB download tests with room to spare. */
const BLOB_MAX = 16 * 1024 ** 3;

function fixture(name: FixtureName): ByteSource {
	return bufferSource(FIXTURES[name].bytes, FIXTURES[name].type);
}

/** Maps a media path to what it serves, or an error for what does not exist. */
function resolve(state: EmulatorState, url: URL): ByteSource | ApiError {
	const path = url.pathname;
	const sample = /^\/media\/sample\.(mp3|png|mp4|wav)$/.exec(path);
	if (sample) return fixture(sample[1] as FixtureName);
	const video = /^\/media\/videos\/([^/]+)\.mp4$/.exec(path);
	if (video) {
		// Settle first so a video past retention is gone here exactly when the API says so.
		state.settle();
		const task = state.findTask(decodeURIComponent(video[1]));
		if (!task || statusAt(task, state.now()) !== 'created')
			return new ApiError(404, 404, 'No such video');
		return state.config.videoBytes > 0
			? generatedSource(state.config.videoBytes, 'video/mp4')
			: fixture('mp4');
	}
	if (/^\/media\/images\/[^/]+\.png$/.test(path)) return fixture('png');
	if (/^\/media\/audio\/[^/]+\.mp3$/.test(path)) return fixture('mp3');
	if (path === '/media/blob') {
		const raw = url.searchParams.get('bytes') ?? '';
		const bytes = Number(raw);
		if (!/^\d+$/.test(raw) || bytes > BLOB_MAX)
			return new ApiError(400, 400, `bytes must be an integer from 0 to ${BLOB_MAX}`);
		return generatedSource(bytes, url.searchParams.get('type') || 'application/octet-stream');
	}
	return new ApiError(404, 404, `No such media: ${path}`);
}

/**
 * The second origin: rendered videos, generated images, audio and arbitrary-size blobs. It needs no
 * key, but it logs whether one was sent, so tests can prove a client does not leak its key to it.
 */
export function createMediaHandler(
	state: EmulatorState,
	faults: FaultInjector,
	log: RequestLog,
	drift?: Drift,
): (req: IncomingMessage, res: ServerResponse) => void {
	return (req, res) => {
		const url = new URL(req.url ?? '/', 'http://media');
		// Drift links have no extension; they serve the same file labelled application/octet-stream.
		const drifted = drift?.mediaPath(url.pathname);
		if (drifted) url.pathname = drifted.pathname;
		const method = (req.method ?? 'GET').toUpperCase();
		const { apiKey } = keyPresence(state, req);
		const base = {
			at: state.now(),
			origin: 'media' as const,
			method,
			path: url.pathname,
			query: queryObject(url.searchParams),
			apiKey,
			bodyBytes: Number(req.headers['content-length'] ?? 0) || 0,
		};
		req.resume();
		const fault = faults.pick('media', method, url.pathname, state.now());
		if (
			fault?.kind === 'resetBefore' ||
			fault?.kind === 'resetAfter' ||
			fault?.kind === 'hangAfter'
		) {
			resetConnection(req);
			log.add({ ...base, status: 0, outcome: 'reset' });
			return;
		}
		if (fault?.kind === 'respond' && fault.respond) {
			sendFaultResponse(res, fault.respond);
			log.add({ ...base, status: fault.respond.status, outcome: 'answered' });
			return;
		}
		const injected = fault && INJECTED_STATUS[fault.kind];
		if (injected) {
			sendJson(
				res,
				injected,
				new ApiError(injected, injected, 'Injected media fault').body(),
				injected === 429 ? { 'Retry-After': fault.retryAfterHeader } : {},
			);
			log.add({ ...base, status: injected, outcome: 'answered' });
			return;
		}
		let target =
			method === 'GET' || method === 'HEAD'
				? resolve(state, url)
				: new ApiError(405, 405, 'The media origin only serves GET and HEAD');
		if (drifted?.octet && drift && !(target instanceof ApiError)) target = drift.octet(target);
		if (target instanceof ApiError) {
			sendJson(res, target.status, target.body());
			log.add({ ...base, status: target.status, outcome: 'answered' });
			return;
		}
		const truncate = fault?.kind === 'truncateBody';
		const status = sendSource(
			req,
			res,
			target,
			truncate ? { cutHalfway: () => resetConnection(req) } : {},
		);
		log.add({ ...base, status, outcome: truncate ? 'reset' : 'answered' });
	};
}
