/**
 * What every action node's constructor starts (each node's own file registers its type and hands its
 * input here): the `input` handler with send and done, one outcome per message (results on output 1;
 * a failure reported to the runtime with done(error), so Catch nodes see it, or by the failure output
 * when the node's setting says so, never both), the status ring with this node's own cost and the time a
 * render takes, and `close` ending every wait within Node-RED's 15 seconds while the paid videos still
 * rendering are logged and kept for the next start.
 */
import type { Node, NodeAPI, NodeDef, NodeStatusFill } from 'node-red';

import type { RequestBudget, SpendingClient } from './api';
import { WrittenPaths, isAborted } from './api';
import { configProblem, type ConfigNode } from './nodes/config/config';
import type { FileNote, Host, Msg } from './context';
import { Context } from './context';
import { persistentStore } from './contextStore';
import type { MsgError } from './errors';
import { FlowError, batchError, describe } from './errors';
import type { Field } from './field';
import { InFlight, newHandling, type Render } from './inFlight';
import type { Result } from './operation';
import type { NodeSpec } from './spec';
import { failuresOf, portsOf } from './spec';
import type { Texts } from './texts';
import { textsOf } from './texts';
import { resumeVideo } from './videos';

/** Message properties the node sets; an earlier VisionStory node's are replaced, not merged. */
const OWN_PROPERTIES = ['visionstory', 'errors', 'error', 'items', 'resumed'] as const;
/** How often the status ring's elapsed time moves on while a message is worked on. */
const TICK_MS = 5_000;

/** An action node's properties as a flow saves them. */
export type ActionDef = NodeDef &
	Record<string, unknown> & {
		config?: string;
		operation?: string;
		failureOutput?: boolean | string;
		wires?: unknown[][];
	};

type Send = (msgs: Array<Msg | null>) => void;
type Done = (error?: Error) => void;

/** What a node's constructor hands its messages to. */
export interface Action {
	input(msg: Msg, send: Send, done: Done): void;
}

/** Elapsed time as the status ring shows it: 45s, 3m05s, 1h02m. */
export function elapsed(ms: number): string {
	const s = Math.floor(ms / 1000);
	if (s < 60) return `${s}s`;
	const m = Math.floor(s / 60);
	if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
	return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** The error as a flow reads it in msg.error on the failure output: Catch's shape, so flows move over unchanged. */
function msgError(node: Node, error: FlowError): Record<string, unknown> {
	return {
		message: error.message,
		name: error.name,
		source: { id: node.id, type: node.type, name: node.name },
		...(error.code !== undefined ? { code: error.code } : {}),
		cause: error.cause,
		stack: error.stack,
	};
}

/** Starts an action node of `spec`: its context, its renders left in flight, its close. */
export function startAction(RED: NodeAPI, node: Node, props: ActionDef, spec: NodeSpec): Action {
	const texts = textsOf(RED);
	const fields = new Map<string, Field>(spec.fields.map((f) => [f.name, f]));
	const config = RED.nodes.getNode(String(props.config ?? '')) as ConfigNode | undefined;
	const operation = spec.operations.find(
		(op) => op.value === String(props.operation ?? spec.operations[0].value),
	);
	const closing = new AbortController();
	const running = new Set<Promise<void>>();
	const { store, persistent } = persistentStore(RED);
	const inFlight = new InFlight(node.id, node.context(), store);
	const outputProperty = String(props.outputProperty ?? '').trim() || 'payload';
	const failures = failuresOf(props);
	const ports = portsOf(operation ?? spec.operations[0], failures.port);
	const failedPort = ports.indexOf('failed');
	const failuresWired = (props.wires?.[failedPort]?.length ?? 0) > 0;
	/** Result paths this node wrote since it started (a deploy): never two results on one path. */
	const written = new WrittenPaths();

	/** Sends one message by one port (the others get nothing). */
	const sendBy = (send: Send, port: number, msg: Msg) => {
		const out = new Array<Msg | null>(ports.length).fill(null);
		out[port] = msg;
		send(out);
	};

	/** The port a result output (0, 1… of `Operation.outputs`) leaves by. */
	const portOf = (output = 0) => (output === 0 ? 0 : output + (failures.port ? 1 : 0));

	/**
	 * A message's failure, its one outcome: to the runtime (Catch nodes; logged when none catches it),
	 * or by the failure output when the setting is on (logged as well when nothing is wired there).
	 */
	const fail = (msg: Msg, error: FlowError, send: Send, done?: Done) => {
		if (failures.toPort) {
			msg.error = msgError(node, error);
			sendBy(send, failedPort, msg);
			if (!failuresWired) node.error(texts('log.failureNotWired', { message: error.message }));
			done?.();
		} else if (done) done(error);
		else node.error(error, msg);
	};

	/** The operation's host for one message; `finish` ends the elapsed-time ticker with the last word. */
	function host(
		handling: string,
		msg: Msg,
		started: number,
		files: Map<number, FileNote>,
	): Host & { finish(text: string, fill: NodeStatusFill): void; stop(): void } {
		let text = '';
		let fill: NodeStatusFill = 'blue';
		const show = () => {
			if (!text) return;
			const ms = Date.now() - started;
			node.status({
				fill,
				shape: 'dot',
				text: ms >= TICK_MS ? texts('status.elapsed', { text, elapsed: elapsed(ms) }) : text,
			});
		};
		const ticker = setInterval(show, TICK_MS);
		const warned = new Set<string>();
		return {
			texts,
			status(next, nextFill) {
				text = next;
				fill = nextFill ?? 'blue';
				show();
			},
			warn(line) {
				if (warned.has(line)) return;
				warned.add(line);
				node.warn(line);
			},
			submitted(kind, videoIds) {
				inFlight.add(handling, msg._msgid ?? '', kind, videoIds);
			},
			file(index, note) {
				files.set(index, note);
			},
			written,
			finish(last, lastFill) {
				clearInterval(ticker);
				node.status({ fill: lastFill, shape: 'dot', text: last });
			},
			stop: () => clearInterval(ticker),
		};
	}

	/** An operation's context for one message: this node's properties and closing signal, the account's client. */
	const contextOf = (
		operationName: string,
		nodeProps: Record<string, unknown>,
		msg: Msg,
		client: SpendingClient,
		budget: RequestBudget,
		hosting: Host,
	) =>
		new Context(
			node.id,
			operationName,
			nodeProps,
			fields,
			msg,
			client,
			budget,
			closing.signal,
			hosting,
		);

	async function handle(msg: Msg, send: Send, done: Done) {
		const secrets = config?.secrets() ?? [];
		const started = Date.now();
		const files = new Map<number, FileNote>();
		const handling = newHandling(msg._msgid);
		const hosting = host(handling, msg, started, files);
		try {
			if (!operation)
				throw new FlowError({
					message: texts('error.unknownOperation', { operation: String(props.operation) }),
					hint: texts('error.unknownOperationHint', {
						operations: spec.operations.map((o) => o.value).join(', '),
					}),
				});
			const problem = configProblem(config);
			if (problem) throw problem;
			const { client, budget } = config!.clientFor(msg._msgid);
			const spentBefore = client.ledger.spent();
			const context = contextOf(operation.value, props, msg, client, budget, hosting);
			context.status('working', { operation: operation.label.toLowerCase() });
			const result = await operation.run(context);
			const cost = client.ledger.spent() - spentBefore;
			const input = msg.payload;
			for (const key of OWN_PROPERTIES) delete msg[key];
			const failed = deliver(send, done, msg, result, input, files);
			inFlight.finished(handling);
			hosting.finish(...statusOf(texts, result, failed, cost));
		} catch (error) {
			if (isAborted(error) && closing.signal.aborted) {
				done();
				return;
			}
			inFlight.finished(handling);
			const described = describe(error, secrets);
			for (const key of OWN_PROPERTIES) delete msg[key];
			hosting.finish(texts('status.failed', { reason: shorten(described.message) }), 'red');
			fail(msg, new FlowError(described), send, done);
		} finally {
			hosting.stop();
		}
	}

	/**
	 * The result into the message and out, and the message done: all good by output 1; a batch with
	 * failures splits, the good items by output 1 and the failed ones reported once (Catch, or the
	 * failure output), each naming its item (index, input). Returns how many items failed.
	 */
	function deliver(
		send: Send,
		done: Done,
		msg: Msg,
		result: Result,
		input: unknown,
		files: Map<number, FileNote>,
	): number {
		const failed = result.errors ?? [];
		if (!result.batch) {
			place(msg, result.payload, result.data, files.get(0));
			if (!result.failure) {
				sendBy(send, portOf(result.output), msg);
				done();
				return 0;
			}
			fail(msg, new FlowError(result.failure), send, done);
			return 1;
		}
		const inputs = Array.isArray(input) ? input : [];
		const payload = result.payload as unknown[];
		const data = (result.data ?? result.payload) as unknown[];
		const bad = new Set(failed.map((f) => f.index));
		const good = payload.map((_, index) => index).filter((index) => !bad.has(index));
		const item = (index: number) => ({ index, input: inputs[index] });
		if (good.length) {
			const out: Msg = failed.length ? { ...msg } : msg;
			place(
				out,
				good.map((i) => payload[i]),
				good.map((i) => data[i]),
				undefined,
			);
			out.items = good.map(item);
			const named = good.map((i) => files.get(i));
			if (named.some(Boolean)) {
				out.filename = named.map((f) => f?.filename ?? null);
				out.mimetype = named.map((f) => f?.mimetype ?? null);
			}
			sendBy(send, portOf(result.output), out);
		}
		if (!failed.length) {
			done();
			return 0;
		}
		// The message itself carries the failed items: done(error) hands this very object to Catch.
		msg.payload = failed.map((f) => inputs[f.index ?? 0]);
		msg.errors = failed.map((f): MsgError => ({ ...f, input: inputs[f.index ?? 0] }));
		msg.items = failed.map((f) => item(f.index ?? 0));
		fail(msg, batchError(failed, payload.length, texts), send, done);
		return failed.length;
	}

	function place(msg: Msg, payload: unknown, data: unknown, file: FileNote | undefined) {
		RED.util.setMessageProperty(msg, outputProperty, payload, true);
		if (data !== undefined && data !== payload) msg.visionstory = data;
		if (file) {
			msg.filename = file.filename;
			msg.mimetype = file.mimetype;
		}
	}

	/**
	 * Picks up one video an earlier node with this id was waiting on, waited on as a create waits (the
	 * core's pipeline: read errors and 404s never end it, its Timeout does, naming the video), and sends
	 * it by itself when it is done.
	 */
	async function resume(render: Render) {
		if (!operation || configProblem(config)) return;
		const { client, budget } = config!.clientFor(render.msgid);
		const [videoId] = render.videoIds;
		const send: Send = (msgs) => node.send(msgs);
		const msg: Msg = {
			videoId,
			payload: { video_id: videoId },
			resumed: { msgid: render.msgid, index: render.index, submittedAt: render.submittedAt },
		};
		const files = new Map<number, FileNote>();
		const hosting = host(render.handling, msg, render.submittedAt, files);
		try {
			hosting.status(texts('status.pickingUp', { id: videoId }));
			const context = contextOf('check', { ...props, videoId: '' }, msg, client, budget, hosting);
			const result = await resumeVideo(context, render.kind, videoId, render.submittedAt);
			const resumed = msg.resumed;
			place(msg, result.payload, result.data, files.get(0));
			msg.resumed = resumed;
			delete msg.videoId;
			if (result.failure) throw new FlowError(result.failure);
			sendBy(send, 0, msg);
			hosting.finish(texts('status.pickedUp', { id: videoId }), 'green');
			inFlight.delivered(render);
		} catch (error) {
			if (closing.signal.aborted) return;
			inFlight.delivered(render);
			const failure =
				error instanceof FlowError ? error : new FlowError(describe(error, config!.secrets()));
			hosting.finish(texts('status.failed', { reason: shorten(failure.cause.message) }), 'red');
			fail(msg, failure, send);
		} finally {
			hosting.stop();
		}
	}

	const resuming = inFlight.load().then(async (renders) => {
		await Promise.all(renders.map(resume));
	});
	running.add(resuming);

	node.on('close', (removed: boolean, done: () => void) => {
		closing.abort();
		for (const line of inFlight.closingLines(texts, !removed)) node.warn(line);
		if (inFlight.size && !persistent && !removed) node.warn(texts('log.notKeptOnRestart'));
		// Every wait and poll listens to the signal; the grace period only covers a request in flight.
		const settled = Promise.allSettled([...running]);
		const timer = setTimeout(done, 10_000);
		void settled.then(() => {
			clearTimeout(timer);
			node.status({});
			done();
		});
	});

	return {
		input(msg, send, done) {
			const work = handle(msg, send, done);
			running.add(work);
			void work.finally(() => running.delete(work));
		},
	};
}

/** The ring after a message: what this node did, and what it cost (not the message's running total). */
function statusOf(
	texts: Texts,
	result: Result,
	failed: number,
	cost: number,
): [string, NodeStatusFill] {
	const total = Array.isArray(result.payload) ? result.payload.length : 1;
	if (result.output === 1 && !failed) return [texts('status.stillRendering'), 'yellow'];
	const [text, fill]: [string, NodeStatusFill] = failed
		? [texts('status.partly', { done: total - failed, total, failed }), 'yellow']
		: result.submitted
			? [texts('status.submitted', { total }), 'blue']
			: [texts('status.done'), 'green'];
	return [cost ? texts('status.credits', { text, credits: cost }) : text, fill];
}

function shorten(text: string): string {
	return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
