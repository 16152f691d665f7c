/**
 * The package's example flows as the end-to-end suites and the demo deploy them into a real Node-RED:
 * each on its own tab, pointed at one config node (the emulator, or the real service), polls every 5 s,
 * and beside every debug node a recorder that keeps what reached it in global.results (GET /vs/results).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { NODE_RED_PACKAGE_DIR } from './paths';

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

/** Records what reached a debug node (a Buffer by its size) into global.results[<debug node id>]; named `record <id>[ error]`. */
const RECORD = `
const results = global.get('results') || {};
const p = node.name.endsWith('error') ? msg.error : msg.payload;
const summary = Buffer.isBuffer(p) ? { buffer: p.length } : Array.isArray(p) ? p.map((e) => Buffer.isBuffer(e) ? { buffer: e.length } : e) : p;
const key = node.name.replace(/^record /, '').replace(/ error$/, '');
(results[key] = results[key] || []).push(JSON.parse(JSON.stringify(summary === undefined ? null : summary)));
global.set('results', results);
return null;`;

export function fn(
	id: string,
	z: string,
	name: string,
	func: string,
	wires: string[][] = [],
): FlowNode {
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

export function httpIn(id: string, z: string, method: string, url: string, wire: string): FlowNode {
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

export function httpOut(id: string, z: string): FlowNode {
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

/** GET /vs/results: what the recorders kept. */
export function resultsEndpoint(z: string): FlowNode[] {
	return [
		httpIn('vs-results-in', z, 'get', '/vs/results', 'vs-results-read'),
		fn('vs-results-read', z, 'read', "msg.payload = global.get('results') || {}; return msg;", [
			['vs-results-out'],
		]),
		httpOut('vs-results-out', z),
	];
}

export interface PreparedExamples {
	flows: FlowNode[];
	injects: string[];
	/** Debug nodes that must receive something, and the error ones that must not (keys of global.results). */
	outputs: string[];
	errors: string[];
	/** Outputs that only a failure elsewhere feeds (the watch example's "failed" branch). */
	optional: string[];
	/** Example file of each debug node. */
	exampleOf: Record<string, string>;
}

export interface ExampleOptions {
	/** Poll interval of the waiting nodes and the watch node (the examples say 10 and 30 s). */
	pollIntervalSeconds?: number;
	/** Videos are streamed to files here instead of memory (`{id}.{ext}`). */
	outputDir?: string;
}

/** Every example on its own tab, pointed at the one config node, with a recorder beside each debug node. */
export function preparedExamples(options: ExampleOptions = {}): PreparedExamples {
	const prepared: PreparedExamples = {
		flows: [],
		injects: [],
		outputs: [],
		optional: [],
		errors: [],
		exampleOf: {},
	};
	for (const file of exampleFiles()) {
		const nodes = readExample(file).filter((n) => n.type !== 'visionstory-config');
		const tab = `tab-${file.replace(/\W+/g, '-')}`;
		prepared.flows.push({
			id: tab,
			type: 'tab',
			label: file.replace(/\.json$/, ''),
			disabled: false,
			info: '',
		});
		const debugs = new Set(nodes.filter((n) => n.type === 'debug').map((n) => n.id));
		for (const node of nodes) {
			const placed: FlowNode = { ...node, z: tab };
			if (options.pollIntervalSeconds && typeof placed.pollIntervalSeconds === 'number')
				placed.pollIntervalSeconds = options.pollIntervalSeconds;
			if (
				options.outputDir &&
				/visionstory-(talking|ai)-video/.test(node.type) &&
				placed.downloadResult
			)
				placed.outputFile = join(options.outputDir, '{id}.{ext}');
			if (Array.isArray(placed.wires))
				placed.wires = (placed.wires as string[][]).map((port) =>
					port.flatMap((id) => (debugs.has(id) ? [id, `rec-${id}`] : [id])),
				);
			if (node.type === 'inject') prepared.injects.push(node.id);
			if (node.type === 'debug') {
				const error = node.name === 'error';
				(error ? prepared.errors : prepared.outputs).push(node.id);
				if (node.name === 'failed') prepared.optional.push(node.id);
				prepared.exampleOf[node.id] = file;
				prepared.flows.push(
					fn(`rec-${node.id}`, tab, `record ${node.id}${error ? ' error' : ''}`, RECORD),
				);
			}
			prepared.flows.push(placed);
		}
	}
	return prepared;
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
