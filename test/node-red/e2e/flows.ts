/**
 * What the suite deploys into the real Node-RED: a test tab (HTTP endpoints around the nodes, so a
 * test drives a flow and reads its result; a watch node recording into the global context) and every
 * example flow of the package, pointed at the emulator, with its debug nodes replaced by recorders.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { NODE_RED_PACKAGE_DIR } from '../../../scripts/node-red/paths';

export type FlowNode = { id: string; type: string; z?: string; [key: string]: unknown };

export const EXAMPLES_DIR = join(NODE_RED_PACKAGE_DIR, 'examples');

export function exampleFiles(): string[] {
	return readdirSync(EXAMPLES_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort();
}

export function readExample(file: string): FlowNode[] {
	return JSON.parse(readFileSync(join(EXAMPLES_DIR, file), 'utf8')) as FlowNode[];
}

/** Records what reached a debug node (a Buffer by its size) into global.results[<node id>]. */
const RECORD = `
const results = global.get('results') || {};
const p = msg.error !== undefined && node.name === 'error' ? msg.error : msg.payload;
const summary = Buffer.isBuffer(p) ? { buffer: p.length } : Array.isArray(p) ? p.map((e) => Buffer.isBuffer(e) ? { buffer: e.length } : e) : p;
(results[node.id] = results[node.id] || []).push(JSON.parse(JSON.stringify(summary === undefined ? null : summary)));
global.set('results', results);
return null;`;

function fn(id: string, z: string, name: string, func: string, wires: string[][] = []): FlowNode {
	return {
		id,
		type: 'function',
		z,
		name,
		func,
		outputs: 1,
		noerr: 0,
		initialize: '',
		finalize: '',
		libs: [],
		x: 0,
		y: 0,
		wires,
	};
}

function httpIn(id: string, z: string, method: string, url: string, wire: string): FlowNode {
	return {
		id,
		type: 'http in',
		z,
		name: '',
		url,
		method,
		upload: false,
		swaggerDoc: '',
		x: 0,
		y: 0,
		wires: [[wire]],
	};
}

function httpOut(id: string, z: string): FlowNode {
	return {
		id,
		type: 'http response',
		z,
		name: '',
		statusCode: '',
		headers: {},
		x: 0,
		y: 0,
		wires: [],
	};
}

const T = 'vs-tests';

/** The test tab: POST /vs/talking runs a talking-video batch; GET /vs/watched and /vs/results read the recorders. */
export function testTab(): FlowNode[] {
	return [
		{ id: T, type: 'tab', label: 'VisionStory tests', disabled: false, info: '' },
		httpIn('t-in', T, 'post', '/vs/talking', 't-prep'),
		fn(
			't-prep',
			T,
			'request',
			'msg.avatarId = msg.payload.avatarId; msg.voiceId = msg.payload.voiceId; msg.payload = msg.payload.texts; return msg;',
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
			wires: [['t-summary']],
		},
		fn(
			't-summary',
			T,
			'summary',
			'msg.payload = { files: [].concat(msg.payload).map((b) => Buffer.isBuffer(b) ? b.length : null), tasks: msg.visionstory, errors: msg.errors || [] }; return msg;',
			[['t-out']],
		),
		httpOut('t-out', T),
		{
			id: 't-catch',
			type: 'catch',
			z: T,
			name: '',
			scope: ['t-talking'],
			uncaught: false,
			x: 0,
			y: 0,
			wires: [['t-error']],
		},
		fn(
			't-error',
			T,
			'error',
			'msg.statusCode = 500; msg.payload = { error: msg.error }; return msg;',
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
		httpIn('t-results-in', T, 'get', '/vs/results', 't-results-read'),
		fn('t-results-read', T, 'read', "msg.payload = global.get('results') || {}; return msg;", [
			['t-results-out'],
		]),
		httpOut('t-results-out', T),
	];
}

export interface PreparedExamples {
	flows: FlowNode[];
	injects: string[];
	/** Debug nodes that must receive something, and the error ones that must not. */
	outputs: string[];
	errors: string[];
}

/** Every example on its own tab, pointed at the emulator: debug nodes become recorders, polls every 5 s. */
export function preparedExamples(): PreparedExamples {
	const flows: FlowNode[] = [];
	const injects: string[] = [];
	const outputs: string[] = [];
	const errors: string[] = [];
	const configs = new Set<string>();
	for (const file of exampleFiles()) {
		const nodes = readExample(file);
		const tab = `tab-${file.replace(/\W+/g, '-')}`;
		flows.push({ id: tab, type: 'tab', label: file, disabled: false, info: '' });
		for (const node of nodes) {
			if (node.type === 'visionstory-config') {
				if (!configs.has(node.id)) configs.add(node.id);
				continue;
			}
			const placed: FlowNode = { ...node, z: tab };
			if (typeof placed.pollIntervalSeconds === 'number') placed.pollIntervalSeconds = 5;
			if (node.type === 'inject') injects.push(node.id);
			if (node.type === 'debug') {
				(node.name === 'error' ? errors : outputs).push(node.id);
				flows.push(fn(node.id, tab, String(node.name), RECORD));
				continue;
			}
			flows.push(placed);
		}
	}
	return { flows, injects, outputs, errors };
}

/** The one config node, pointed at the emulator, with the key as the editor sends it on deploy. */
export function emulatorConfig(baseUrl: string, apiKey: string): FlowNode {
	return {
		id: 'vs-config',
		type: 'visionstory-config',
		name: 'emulator',
		baseUrl,
		maxCreditsPerMessage: '200',
		requestsPerSecond: '',
		credentials: { apiKey },
	};
}
