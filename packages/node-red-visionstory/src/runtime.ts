/**
 * One constructor for every action node: the `input` handler with send and done, the status ring, the
 * errors Catch nodes receive, and `close` ending every wait within Node-RED's 15 seconds.
 */
import { isAborted } from './api';
import type { ConfigNode } from './config';
import { configProblem } from './config';
import type { Msg } from './context';
import { Context } from './context';
import { FlowError, batchError, describe } from './errors';
import type { Node, RED, StatusFill } from './red';
import type { Field } from './field';
import type { NodeSpec } from './spec';

interface ActionNode extends Node {
	outputs?: number;
}

/** Message properties the node sets; an earlier VisionStory node's are replaced, not merged. */
const OWN_PROPERTIES = ['visionstory', 'errors'] as const;

export function registerAction(RED: RED, spec: NodeSpec): void {
	const fields = new Map<string, Field>(spec.fields.map((f) => [f.name, f]));
	const operations = new Map(spec.operations.map((op) => [op.value, op]));

	function VisionStoryNode(this: ActionNode, props: Record<string, unknown> & { config?: string }) {
		RED.nodes.createNode(this, props);
		start(this, props);
	}

	function start(node: ActionNode, props: Record<string, unknown> & { config?: string }) {
		const config = RED.nodes.getNode(String(props.config ?? '')) as ConfigNode | undefined;
		const operation = operations.get(String(props.operation ?? spec.operations[0].value));
		const closing = new AbortController();
		const running = new Set<Promise<void>>();

		const status = (text: string, fill: StatusFill = 'blue', shape: 'dot' | 'ring' = 'dot') =>
			node.status({ fill, shape, text });

		node.on('input', (msg, send, done) => {
			const work = handle(msg, send, done);
			running.add(work);
			void work.finally(() => running.delete(work));
		});

		async function handle(msg: Msg, send: (msgs: unknown) => void, done: (error?: Error) => void) {
			const secrets = config?.secrets() ?? [];
			try {
				if (!operation)
					throw new FlowError({
						message: `Unknown operation "${String(props.operation)}"`,
						hint: `Open the node and choose one of: ${spec.operations.map((o) => o.value).join(', ')}`,
					});
				const problem = configProblem(config);
				if (problem) throw problem;
				const { client, budget } = config!.clientFor(msg._msgid);
				const context = new Context(
					node.id,
					operation.value,
					props,
					fields,
					msg,
					client,
					budget,
					closing.signal,
					(text, fill) => status(text, fill ?? 'blue'),
				);
				status(`${operation.label.toLowerCase()}…`);
				const result = await operation.run(context);
				for (const key of OWN_PROPERTIES) delete msg[key];
				msg.payload = result.payload;
				if (result.data !== undefined && result.data !== result.payload)
					msg.visionstory = result.data;
				const spent = client.ledger.spent();
				const failed = result.errors ?? [];
				if (failed.length) msg.errors = failed;
				const outputs = operation.outputs?.length ?? 1;
				const out = new Array<Msg | null>(outputs).fill(null);
				out[result.output ?? 0] = msg;
				send(outputs === 1 ? msg : out);
				const total = Array.isArray(result.payload) ? result.payload.length : 1;
				const credits = spent ? ` · ${spent} credits` : '';
				if (failed.length) {
					status(
						`${total - failed.length}/${total} done, ${failed.length} failed${credits}`,
						'red',
						'ring',
					);
					done(batchError(failed, total));
				} else {
					status(
						result.output === 1 ? 'still rendering' : `done${credits}`,
						result.output === 1 ? 'yellow' : 'green',
					);
					done();
				}
			} catch (error) {
				if (isAborted(error) && closing.signal.aborted) {
					done();
					return;
				}
				const described = describe(error, secrets);
				for (const key of OWN_PROPERTIES) delete msg[key];
				status(`failed: ${shorten(described.message)}`, 'red');
				done(new FlowError(described));
			}
		}

		node.on('close', (_removed, done) => {
			closing.abort();
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

function shorten(text: string): string {
	return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
