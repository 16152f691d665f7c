/**
 * The test tab the suite deploys beside the examples: HTTP endpoints around the nodes, so a test drives
 * a flow and reads its result, and a watch node recording into the global context.
 */
import {
	fn,
	httpIn,
	httpOut,
	resultsEndpoint,
	type FlowNode,
} from '../../../scripts/node-red/examples';

const T = 'vs-tests';

/** The account the floor test spends from, its config node's id, and the floor set there. */
export const FLOOR = {
	apiKey: 'sk-vs-emulator-nr-e2e-floor-00000000',
	config: 'vs-floor-config',
	keepAtLeast: 10,
};

/**
 * The test tab: POST /vs/talking runs a talking-video batch, POST /vs/floor one talking video through a
 * config node with Keep at Least N Credits set, POST /vs/speech two speech nodes in a row, the inject
 * `t-slow-inject` a render to deploy under; failures leave by output 2, a Catch node and a Status node
 * record what reaches them; GET /vs/watched, /vs/results and /vs/global/<key> read the recorders.
 */
export function testTab(ids: { avatarId: string; voiceId: string }): FlowNode[] {
	return [
		{ id: T, type: 'tab', label: 'VisionStory tests', disabled: false, info: '' },
		httpIn('t-in', T, 'post', '/vs/talking', 't-prep'),
		fn(
			't-prep',
			T,
			'request',
			'msg.avatarId = msg.payload.avatarId; msg.voiceId = msg.payload.voiceId; if (msg.payload.outputFile) msg.outputFile = msg.payload.outputFile; msg.payload = msg.payload.texts; return msg;',
			[['t-talking']],
		),
		{
			id: 't-talking',
			type: 'visionstory-talking-video',
			z: T,
			name: 'talking videos',
			config: 'vs-config',
			operation: 'create',
			scriptType: 'text',
			waitForCompletion: true,
			pollIntervalSeconds: 5,
			timeoutMinutes: 5,
			downloadResult: true,
			outputFile: '',
			x: 0,
			y: 0,
			wires: [['t-summary'], ['t-error']],
		},
		fn(
			't-summary',
			T,
			'summary',
			'msg.payload = { files: [].concat(msg.payload).map((b) => Buffer.isBuffer(b) ? b.length : b), tasks: msg.visionstory, errors: msg.errors || [], items: msg.items, filename: msg.filename, mimetype: msg.mimetype }; return msg;',
			[['t-out']],
		),
		httpOut('t-out', T),
		{
			id: 't-catch',
			type: 'catch',
			z: T,
			name: '',
			scope: ['t-talking', 't-floor', 't-speech-1', 't-speech-2', 't-slow'],
			uncaught: false,
			x: 0,
			y: 0,
			wires: [['t-caught']],
		},
		record('t-caught', 'caught'),
		// A batch's failed items come beside its good ones (which answer the request): kept, not answered.
		fn(
			't-error',
			T,
			'error',
			"if (msg.items) { const f = global.get('batchFailed') || []; f.push({ items: msg.items, errors: msg.errors, error: msg.error }); global.set('batchFailed', f); return null; } msg.statusCode = 500; msg.payload = { error: msg.error }; return msg;",
			[['t-out']],
		),
		{
			id: 't-watch',
			type: 'visionstory-watch',
			z: T,
			name: '',
			config: 'vs-config',
			events: ['talkingVideo', 'aiVideo'],
			statuses: ['created', 'failed'],
			pollIntervalSeconds: 5,
			x: 0,
			y: 0,
			wires: [['t-watched']],
		},
		fn(
			't-watched',
			T,
			'record',
			"const seen = global.get('watched') || []; seen.push({ id: msg.payload.video_id, status: msg.status, topic: msg.topic }); global.set('watched', seen); return null;",
		),
		httpIn('t-watched-in', T, 'get', '/vs/watched', 't-watched-read'),
		fn('t-watched-read', T, 'read', "msg.payload = global.get('watched') || []; return msg;", [
			['t-watched-out'],
		]),
		httpOut('t-watched-out', T),
		...resultsEndpoint(T),
		httpIn('t-floor-in', T, 'post', '/vs/floor', 't-floor-prep'),
		fn(
			't-floor-prep',
			T,
			'request',
			'msg.avatarId = msg.payload.avatarId; msg.voiceId = msg.payload.voiceId; msg.payload = msg.payload.text; return msg;',
			[['t-floor']],
		),
		{
			id: 't-floor',
			type: 'visionstory-talking-video',
			z: T,
			name: 'above the floor',
			config: FLOOR.config,
			operation: 'create',
			scriptType: 'text',
			waitForCompletion: false,
			downloadResult: false,
			x: 0,
			y: 0,
			wires: [['t-floor-out'], ['t-error']],
		},
		httpOut('t-floor-out', T),
		// Two speech nodes in a row, both with the voice set: msg.voiceId must not change it.
		httpIn('t-speech-in', T, 'post', '/vs/speech', 't-speech-prep'),
		fn(
			't-speech-prep',
			T,
			'request',
			'msg.text = msg.payload.text; msg.voiceId = msg.payload.voiceId; return msg;',
			[['t-speech-1']],
		),
		speech('t-speech-1', [['t-speech-2'], ['t-error']]),
		speech('t-speech-2', [['t-speech-summary'], ['t-error']]),
		fn(
			't-speech-summary',
			T,
			'summary',
			'msg.payload = { size: msg.payload.length, filename: msg.filename, mimetype: msg.mimetype }; return msg;',
			[['t-out']],
		),
		// A render long enough to deploy while it runs; pressed through an inject node.
		{
			id: 't-slow-inject',
			type: 'inject',
			z: T,
			name: '',
			props: [{ p: 'payload' }],
			payload: 'Slowly, please.',
			payloadType: 'str',
			repeat: '',
			once: false,
			x: 0,
			y: 0,
			wires: [['t-slow']],
		},
		{
			id: 't-slow',
			type: 'visionstory-talking-video',
			z: T,
			name: 'slow',
			config: 'vs-config',
			operation: 'create',
			scriptType: 'text',
			avatarId: ids.avatarId,
			voiceId: ids.voiceId,
			waitForCompletion: true,
			pollIntervalSeconds: 5,
			timeoutMinutes: 5,
			downloadResult: false,
			x: 0,
			y: 0,
			wires: [['t-slow-done'], ['t-slow-failed']],
		},
		record('t-slow-done', 'slowDone'),
		// Pressed right after a deploy: its 404 was the demo's first-run failure (issue 33, 10).
		{
			id: 't-ping-inject',
			type: 'inject',
			z: T,
			name: '',
			props: [{ p: 'payload' }],
			payload: 'ping',
			payloadType: 'str',
			repeat: '',
			once: false,
			x: 0,
			y: 0,
			wires: [['t-ping']],
		},
		record('t-ping', 'pinged'),
		record('t-slow-failed', 'slowFailed'),
		{
			id: 't-status',
			type: 'status',
			z: T,
			name: '',
			scope: [
				't-talking',
				't-floor',
				't-speech-1',
				't-speech-2',
				't-slow',
				't-out-catch',
				't-out-port',
				't-out-poor',
			],
			x: 0,
			y: 0,
			wires: [['t-status-record']],
		},
		fn(
			't-status-record',
			T,
			'record',
			"const s = global.get('statuses') || []; s.push({ id: msg.status.source.id, text: msg.status.text || '' }); global.set('statuses', s); return null;",
		),
		httpIn('t-global-in', T, 'get', '/vs/global/:key', 't-global-read'),
		fn(
			't-global-read',
			T,
			'read',
			'msg.payload = global.get(msg.req.params.key) || []; return msg;',
			[['t-global-out']],
		),
		httpOut('t-global-out', T),
	];

	function speech(id: string, wires: string[][]): FlowNode {
		return {
			id,
			type: 'visionstory-text-to-speech',
			z: T,
			name: id,
			config: 'vs-config',
			operation: 'synthesize',
			voiceId: ids.voiceId,
			downloadResult: true,
			x: 0,
			y: 0,
			wires,
		};
	}

	/** Keeps each message's summary (payload, visionstory, resumed, error) in global[key]. */
	function record(id: string, key: string): FlowNode {
		return fn(
			id,
			T,
			'record',
			`const r = global.get('${key}') || []; r.push(JSON.parse(JSON.stringify({ payload: Buffer.isBuffer(msg.payload) ? { buffer: msg.payload.length } : msg.payload, visionstory: msg.visionstory, resumed: msg.resumed, error: msg.error }))); global.set('${key}', r); return null;`,
		);
	}
}

/** The account the 402 check spends from (1 credit: a talking video is refused), and its config node. */
export const POOR = { apiKey: 'sk-vs-emulator-nr-e2e-poor-000000000', config: 'vs-poor-config' };

/** global[key] of what reached each outcome: output 1, the failure output, a Catch node. */
export const OUTCOMES = { ok: 'outcomeOk', failed: 'outcomeFailed', caught: 'outcomeCaught' };

/**
 * Where a failure goes (issue 40 item 4): POST /vs/outcome/<catch|port|poor> answers at once and hands
 * `{tag, texts, avatarId, voiceId}` to a talking-video node with the Failure output off (`catch`, and
 * `poor` on the 1-credit account) or on (`port`). What reaches output 1, the failure output and a Catch
 * node is kept in global[OUTCOMES.*], each with the request's tag and the node's id.
 */
export function outcomesTab(): FlowNode[] {
	const node = (id: string, config: string, failureOutput: boolean): FlowNode => ({
		id,
		type: 'visionstory-talking-video',
		z: T,
		name: id,
		config,
		operation: 'create',
		scriptType: 'text',
		waitForCompletion: true,
		pollIntervalSeconds: 5,
		timeoutMinutes: 5,
		downloadResult: false,
		failureOutput,
		outputs: failureOutput ? 2 : 1,
		x: 0,
		y: 0,
		wires: failureOutput ? [['t-out-ok'], ['t-out-failed']] : [['t-out-ok']],
	});
	const endpoint = (mode: string, target: string): FlowNode[] => [
		httpIn(`t-out-${mode}-in`, T, 'post', `/vs/outcome/${mode}`, `t-out-${mode}-prep`),
		fn(
			`t-out-${mode}-prep`,
			T,
			'request',
			'msg.tag = msg.payload.tag; msg.avatarId = msg.payload.avatarId; msg.voiceId = msg.payload.voiceId; msg.payload = msg.payload.texts; return msg;',
			[[target, `t-out-${mode}-answer`]],
		),
		fn(`t-out-${mode}-answer`, T, 'answer', 'msg.payload = { accepted: msg.tag }; return msg;', [
			['t-out'],
		]),
	];
	const keep = (id: string, key: string, by: string) =>
		fn(
			id,
			T,
			'record',
			`const r = global.get('${key}') || []; r.push(JSON.parse(JSON.stringify({ tag: msg.tag, by: ${by}, items: msg.items, errors: msg.errors, error: msg.error, payload: Buffer.isBuffer(msg.payload) ? null : msg.payload }))); global.set('${key}', r); return null;`,
		);
	return [
		...endpoint('catch', 't-out-catch'),
		...endpoint('port', 't-out-port'),
		...endpoint('poor', 't-out-poor'),
		node('t-out-catch', 'vs-config', false),
		node('t-out-port', 'vs-config', true),
		node('t-out-poor', POOR.config, false),
		{
			id: 't-out-catcher',
			type: 'catch',
			z: T,
			name: '',
			scope: ['t-out-catch', 't-out-port', 't-out-poor'],
			uncaught: false,
			x: 0,
			y: 0,
			wires: [['t-out-caught']],
		},
		keep(
			't-out-ok',
			OUTCOMES.ok,
			"msg.visionstory && [].concat(msg.visionstory).length + ' videos'",
		),
		keep('t-out-failed', OUTCOMES.failed, 'msg.error.source.id'),
		keep('t-out-caught', OUTCOMES.caught, 'msg.error.source.id'),
	];
}

/** The 402 check's config node, on the 1-credit account. */
export function poorConfig(baseUrl: string): FlowNode {
	return {
		id: POOR.config,
		type: 'visionstory-config',
		name: 'one credit',
		baseUrl,
		maxCreditsPerMessage: '',
		requestsPerSecond: '',
		credentials: { apiKey: POOR.apiKey },
	};
}

/** The long speech's config node: the examples' has a cap of 200 credits a message, below 100,000 characters' price. */
const SPEECH_CONFIG = 'vs-speech-config';

/**
 * POST /vs/long-speech speaks `text` (any length) into one MP3 and answers it (base64) with its figures; POST
 * /vs/captions aligns `text` with the recording at `audioUrl` and answers the SRT and WebVTT captions.
 */
export function speechAndCaptionsTab(): FlowNode[] {
	return [
		httpIn('t-long-speech-in', T, 'post', '/vs/long-speech', 't-long-speech-prep'),
		fn('t-long-speech-prep', T, 'request', 'msg.text = msg.payload.text; return msg;', [
			['t-long-speech'],
		]),
		{
			id: 't-long-speech',
			type: 'visionstory-text-to-speech',
			z: T,
			name: 'long speech',
			config: SPEECH_CONFIG,
			operation: 'synthesize',
			voiceId: 'Alice',
			downloadResult: true,
			outputFile: '',
			x: 0,
			y: 0,
			wires: [['t-long-speech-summary'], ['t-error']],
		},
		fn(
			't-long-speech-summary',
			T,
			'summary',
			'msg.payload = { mp3: msg.payload.toString("base64"), details: msg.visionstory }; return msg;',
			[['t-out']],
		),
		httpIn('t-captions-in', T, 'post', '/vs/captions', 't-captions-prep'),
		fn(
			't-captions-prep',
			T,
			'request',
			'msg.audioUrl = msg.payload.audioUrl; msg.text = msg.payload.text; return msg;',
			[['t-captions']],
		),
		{
			id: 't-captions',
			type: 'visionstory-align',
			z: T,
			name: 'captions',
			config: 'vs-config',
			operation: 'align',
			audioSource: 'url',
			captions: 'both',
			maxCharsPerLine: 32,
			x: 0,
			y: 0,
			wires: [['t-out'], ['t-error']],
		},
	];
}

/** A second config node on the floor test's account, as the editor sends it on deploy. */
export function floorConfig(baseUrl: string): FlowNode {
	return {
		id: FLOOR.config,
		type: 'visionstory-config',
		name: 'with a floor',
		baseUrl,
		maxCreditsPerMessage: '',
		keepAtLeastCredits: String(FLOOR.keepAtLeast),
		requestsPerSecond: '',
		credentials: { apiKey: FLOOR.apiKey },
	};
}

/** The long speech's config node: the emulator's default account, no cap. */
export function speechConfig(baseUrl: string, apiKey: string): FlowNode {
	return {
		id: SPEECH_CONFIG,
		type: 'visionstory-config',
		name: 'without a cap',
		baseUrl,
		maxCreditsPerMessage: '',
		requestsPerSecond: '',
		credentials: { apiKey },
	};
}

/** The tab of the watch checks that switch the second emulator's lists; each deploy holds one watch node. */
const W = 'vs-watch-lists';
export const WATCH_LISTS = {
	apiKey: 'sk-vs-emulator-nr-e2e-watch-lists-0000',
	config: 'vs-watch-lists-config',
	/** global[key] holds each video a watch node sent: { by (the node's id), id, status, topic }. */
	sentKey: 'listsWatched',
	/** global[key] holds the watch node's statuses: { id, text }. */
	statusKey: 'listsStatuses',
};

/**
 * The watch node `id` (watching `events`) on its own config node against the second emulator, whose
 * list switches the other checks never see; what it sends and its statuses are kept in the global
 * context under WATCH_LISTS' keys, read through GET /vs/global/<key>.
 */
export function watchListsTab(baseUrl: string, id: string, events: string[]): FlowNode[] {
	return [
		{ id: W, type: 'tab', label: 'VisionStory watch lists', disabled: false, info: '' },
		{
			id: WATCH_LISTS.config,
			type: 'visionstory-config',
			name: 'the second emulator',
			baseUrl,
			maxCreditsPerMessage: '',
			requestsPerSecond: '',
			credentials: { apiKey: WATCH_LISTS.apiKey },
		},
		{
			id,
			type: 'visionstory-watch',
			z: W,
			name: id,
			config: WATCH_LISTS.config,
			events,
			statuses: ['created', 'failed'],
			pollIntervalSeconds: 5,
			x: 0,
			y: 0,
			wires: [[`${id}-record`]],
		},
		fn(
			`${id}-record`,
			W,
			'record',
			`const seen = global.get('${WATCH_LISTS.sentKey}') || []; seen.push({ by: '${id}', id: msg.payload.video_id, status: msg.status, topic: msg.topic }); global.set('${WATCH_LISTS.sentKey}', seen); return null;`,
		),
		{
			id: `${id}-status`,
			type: 'status',
			z: W,
			name: '',
			scope: [id],
			x: 0,
			y: 0,
			wires: [[`${id}-status-record`]],
		},
		fn(
			`${id}-status-record`,
			W,
			'record',
			`const s = global.get('${WATCH_LISTS.statusKey}') || []; s.push({ id: msg.status.source.id, text: msg.status.text || '' }); global.set('${WATCH_LISTS.statusKey}', s); return null;`,
		),
	];
}
