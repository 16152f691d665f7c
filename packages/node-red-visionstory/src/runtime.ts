/**
 * One constructor for every action node: the `input` handler with send and done, one outcome per
 * message (results on output 1, failures on output 2, never also to Catch), the status ring with this
 * node's own cost and the time a render takes, and `close` ending every wait within Node-RED's
 * 15 seconds while the paid videos still rendering are logged and kept for the next start.
 */
import type { TaskKind } from './api';
import { WrittenPaths, isAborted } from './api';
import type { ConfigNode } from './config';
import { configProblem } from './config';
import type { FileNote, Host, Msg } from './context';
import { Context } from './context';
import type { MsgError } from './errors';
import { FlowError, batchError, describe } from './errors';
import type { Field } from './field';
import { InFlight, type Render } from './inFlight';
import type { Result } from './operation';
import type { Node, RED, StatusFill } from './red';
import type { NodeSpec } from './spec';
import { FAILED_PORT, portOf, portsOf } from './spec';
import { checkVideo } from './videos';
import { persistentStore } from './watch';

/** Message properties the node sets; an earlier VisionStory node's are replaced, not merged. */
const OWN_PROPERTIES = ['visionstory', 'errors', 'error', 'items', 'resumed'] as const;
/** How often the status ring's elapsed time moves on while a message is worked on. */
const TICK_MS = 5_000;

type Props = Record<string, unknown> & { config?: string; wires?: unknown[][] };

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

export function registerAction(RED: RED, spec: NodeSpec): void {
	const fields = new Map<string, Field>(spec.fields.map((f) => [f.name, f]));
	const operations = new Map(spec.operations.map((op) => [op.value, op]));

	function VisionStoryNode(this: Node, props: Props) {
		RED.nodes.createNode(this, props);
		start(this, props);
	}

	function start(node: Node, props: Props) {
		const config = RED.nodes.getNode(String(props.config ?? '')) as ConfigNode | undefined;
		const operation = operations.get(String(props.operation ?? spec.operations[0].value));
		const closing = new AbortController();
		const running = new Set<Promise<void>>();
		const { store, persistent } = persistentStore(RED);
		const inFlight = new InFlight(node.context(), store);
		const outputProperty = String(props.outputProperty ?? '').trim() || 'payload';
		const failuresWired = (props.wires?.[FAILED_PORT]?.length ?? 0) > 0;
		const ports = operation ? portsOf(operation).length : 2;
		const written = new WrittenPaths();

		/** Sends one message by one port (the others get nothing). */
		const sendBy = (send: (msgs: unknown) => void, port: number, msg: Msg) => {
			const out = new Array<Msg | null>(ports).fill(null);
			out[port] = msg;
			send(out);
		};

		/** A failure by the failure output; logged as well when nothing is wired there, so it is never silent. */
		const fail = (send: (msgs: unknown) => void, msg: Msg, error: FlowError) => {
			msg.error = msgError(node, error);
			sendBy(send, FAILED_PORT, msg);
			if (!failuresWired) node.error(error.message);
		};

		node.on('input', (msg, send, done) => {
			const work = handle(msg, send, done);
			running.add(work);
			void work.finally(() => running.delete(work));
		});

		/** The operation's host for one message; `finish` ends the elapsed-time ticker with the last word. */
		function host(
			msg: Msg,
			started: number,
			files: Map<number, FileNote>,
		): Host & { finish(text: string, fill: StatusFill): void; stop(): void } {
			let text = '';
			let fill: StatusFill = 'blue';
			const show = () => {
				if (!text) return;
				const ms = Date.now() - started;
				node.status({
					fill,
					shape: 'dot',
					text: ms >= TICK_MS ? `${text} · ${elapsed(ms)}` : text,
				});
			};
			const ticker = setInterval(show, TICK_MS);
			const warned = new Set<string>();
			return {
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
					inFlight.add(msg._msgid ?? '', kind, videoIds);
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

		async function handle(msg: Msg, send: (msgs: unknown) => void, done: (error?: Error) => void) {
			const secrets = config?.secrets() ?? [];
			const started = Date.now();
			const files = new Map<number, FileNote>();
			const hosting = host(msg, started, files);
			try {
				if (!operation)
					throw new FlowError({
						message: `Unknown operation "${String(props.operation)}"`,
						hint: `Open the node and choose one of: ${spec.operations.map((o) => o.value).join(', ')}`,
					});
				const problem = configProblem(config);
				if (problem) throw problem;
				const { client, budget } = config!.clientFor(msg._msgid);
				const spentBefore = client.ledger.spent();
				const context = new Context(
					node.id,
					operation.value,
					props,
					fields,
					msg,
					client,
					budget,
					closing.signal,
					hosting,
				);
				hosting.status(`${operation.label.toLowerCase()}…`);
				const result = await operation.run(context);
				const cost = client.ledger.spent() - spentBefore;
				const input = msg.payload;
				for (const key of OWN_PROPERTIES) delete msg[key];
				const failed = deliver(send, msg, result, input, files);
				inFlight.delete(msg._msgid ?? '');
				hosting.finish(...statusOf(result, failed, cost));
				done();
			} catch (error) {
				if (isAborted(error) && closing.signal.aborted) {
					done();
					return;
				}
				inFlight.delete(msg._msgid ?? '');
				const described = describe(error, secrets);
				for (const key of OWN_PROPERTIES) delete msg[key];
				hosting.finish(`failed: ${shorten(described.message)}`, 'red');
				fail(send, msg, new FlowError(described));
				done();
			} finally {
				hosting.stop();
			}
		}

		/**
		 * The result into the message and out: all good by output 1; a batch with failures splits, the
		 * good items by output 1 and the failed ones by output 2, each naming its item (index, input).
		 * Returns how many items failed.
		 */
		function deliver(
			send: (msgs: unknown) => void,
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
					return 0;
				}
				fail(send, msg, new FlowError(result.failure));
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
			if (failed.length) {
				const errors: MsgError[] = failed.map((f) => ({ ...f, input: inputs[f.index ?? 0] }));
				const out: Msg = { ...msg, payload: failed.map((f) => inputs[f.index ?? 0]) };
				out.errors = errors;
				out.items = failed.map((f) => item(f.index ?? 0));
				const error = batchError(failed, payload.length);
				out.error = msgError(node, error);
				sendBy(send, FAILED_PORT, out);
				if (!failuresWired) node.error(error.message);
			}
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

		/** Picks up the videos an earlier node with this id was waiting on, and sends each when it is done. */
		async function resume(render: Render) {
			if (!operation || configProblem(config)) return;
			const { client, budget } = config!.clientFor(render.msgid);
			const pollMs = Math.max(5, Number(props.pollIntervalSeconds) || 10) * 1000;
			const timeoutMs = Math.max(1, Number(props.timeoutMinutes) || 30) * 60_000;
			for (const [index, videoId] of render.videoIds.entries()) {
				const msg: Msg = {
					videoId,
					payload: { video_id: videoId },
					resumed: { msgid: render.msgid, index, submittedAt: render.submittedAt },
				};
				const files = new Map<number, FileNote>();
				const hosting = host(msg, render.submittedAt, files);
				try {
					for (;;) {
						hosting.status(`picking up ${videoId}`);
						const context = new Context(
							node.id,
							'check',
							{ ...props, videoId: '' },
							fields,
							msg,
							client,
							budget,
							closing.signal,
							hosting,
						);
						const result = await checkVideo(context, render.kind as TaskKind);
						if (result.output === 0) {
							const resumed = msg.resumed;
							place(msg, result.payload, result.data, files.get(0));
							msg.resumed = resumed;
							delete msg.videoId;
							sendBy(node.send.bind(node), 0, msg);
							hosting.finish(`picked up ${videoId}`, 'green');
							break;
						}
						if (Date.now() - render.submittedAt > timeoutMs)
							throw new FlowError({
								message: `${videoId} is still rendering after the node's timeout (${elapsed(Date.now() - render.submittedAt)} since it was submitted)`,
								hint: `Fetch it later with Get or Check Status, msg.videoId = "${videoId}"`,
								videoIds: [videoId],
							});
						await sleep(pollMs, closing.signal);
					}
					inFlight.delivered(render.msgid, videoId);
				} catch (error) {
					if (closing.signal.aborted) return;
					inFlight.delivered(render.msgid, videoId);
					const failure =
						error instanceof FlowError ? error : new FlowError(describe(error, config!.secrets()));
					hosting.finish(`failed: ${shorten(failure.cause.message)}`, 'red');
					fail(node.send.bind(node), msg, failure);
				} finally {
					hosting.stop();
				}
			}
		}

		const resuming = inFlight.load().then(async (renders) => {
			await Promise.all(renders.map(resume));
		});
		running.add(resuming);

		node.on('close', (removed, done) => {
			closing.abort();
			for (const line of inFlight.closingLines(!removed)) node.warn(line);
			if (inFlight.size && !persistent && !removed)
				node.warn(
					'Without a persistent context store (contextStorage in settings.js) a restart forgets these videos; a deploy keeps them.',
				);
			// Every wait and poll listens to the signal; the grace period only covers a request in flight.
			const settled = Promise.allSettled([...running]);
			const timer = setTimeout(done, 10_000);
			void settled.then(() => {
				clearTimeout(timer);
				node.status({});
				done();
			});
		});
	}

	RED.nodes.registerType(spec.type, VisionStoryNode);
}

/** The ring after a message: what this node did, and what it cost (not the message's running total). */
function statusOf(result: Result, failed: number, cost: number): [string, StatusFill] {
	const credits = cost ? ` · ${cost} credits` : '';
	const total = Array.isArray(result.payload) ? result.payload.length : 1;
	if (failed) return [`${total - failed}/${total} done, ${failed} failed${credits}`, 'yellow'];
	if (result.submitted) return [`submitted ${total}${credits}`, 'blue'];
	if (result.output === 1) return ['still rendering', 'yellow'];
	return [`done${credits}`, 'green'];
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
	return new Promise((resolve, reject) => {
		const timer = setTimeout(resolve, ms);
		signal.addEventListener(
			'abort',
			() => {
				clearTimeout(timer);
				reject(signal.reason);
			},
			{ once: true },
		);
	});
}

function shorten(text: string): string {
	return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
