/**
 * The watch node: starts a flow once for every video task that reaches a chosen status (created,
 * failed) after the node was deployed. What it has seen is kept in the node's context; with a
 * persistent context store (localfilesystem) it survives restarts, so nothing is sent twice or missed
 * while Node-RED was down. Without one, the status ring and the log say so.
 */
import type { Announcer, TaskKind, VideoTask } from '../../api';
import { isAborted, Notices, taskSources, watchOnce } from '../../api';
import type { Node, NodeAPI, NodeContext, NodeDef } from 'node-red';

import { persistentStore } from '../../contextStore';
import { describe } from '../../errors';
import { textsOf } from '../../texts';
import type { ConfigNode } from '../config/config';
import { configProblem } from '../config/config';

export const WATCH_EVENTS = ['talkingVideo', 'aiVideo'] as const;
export const WATCH_STATUSES = ['created', 'failed'] as const;
export const MIN_POLL_SECONDS = 5;
const STATE_KEY = 'visionstory-watch';
/** How long one poll may read list pages; a longer backlog goes on in the next poll. */
const POLL_BUDGET_MS = 60_000;
const WHO = 'VisionStory watch';

/** What the watch node stored before it used the shared watcher (version 1). */
interface StateV1 {
	version: 1;
	kinds: Partial<
		Record<
			TaskKind,
			{ mark: { ids: string[]; at: number | null }; pending: string[]; emitted: string[] }
		>
	>;
}

/**
 * A version 1 state in the watcher's shape, so an upgrade neither misses what finished meanwhile nor
 * sends again what was sent: its mark becomes the head (ids without their times), its pending ids are
 * watched, its sent ids stay remembered.
 */
export function migrateWatchState(value: unknown): unknown {
	const old = value as StateV1 | undefined;
	if (old?.version !== 1 || typeof old.kinds !== 'object') return value;
	const kinds = Object.entries(old.kinds).map(([kind, state]) => [
		kind,
		{
			head: {
				at: state.mark.at,
				from: state.mark.at,
				seen: state.mark.ids.map((id) => [id, null]),
			},
			gaps: [],
			pending: state.pending.map((id) => ({ id, at: null, misses: 0 })),
			emitted: state.emitted,
			list: 'full',
		},
	]);
	return { version: 2, ...Object.fromEntries(kinds) };
}

/** Each finished task as the message the node sends; it downloads nothing. */
const messages: Announcer<{ kind: TaskKind; task: VideoTask }> = {
	announce: async (kind, task) => await Promise.resolve({ kind, task }),
	withoutFile: (kind, task) => ({ kind, task }),
	downloads: () => false,
};

export interface WatchProps extends NodeDef {
	config?: string;
	events?: string[] | string;
	statuses?: string[] | string;
	pollIntervalSeconds?: string | number;
}

function listOf(value: unknown, allowed: readonly string[]): string[] {
	const list = Array.isArray(value) ? value.map(String) : String(value ?? '').split(',');
	return list.map((v) => v.trim()).filter((v) => allowed.includes(v));
}

export function registerWatch(RED: NodeAPI): void {
	const texts = textsOf(RED);
	function VisionStoryWatch(this: Node, props: WatchProps) {
		RED.nodes.createNode(this, props);
		start(this, props);
	}

	function start(node: Node, props: WatchProps) {
		const config = RED.nodes.getNode(String(props.config ?? '')) as ConfigNode | undefined;
		const events = listOf(props.events, WATCH_EVENTS) as TaskKind[];
		const statuses = listOf(props.statuses, WATCH_STATUSES);
		const intervalMs = Math.max(MIN_POLL_SECONDS, Number(props.pollIntervalSeconds) || 60) * 1000;
		const { store, persistent } = persistentStore(RED);
		const context = node.context();
		const closing = new AbortController();
		let timer: NodeJS.Timeout | undefined;
		let polling: Promise<void> | undefined;
		const kept = (text: string) => (persistent ? text : texts('status.notKept', { text }));
		if (!persistent) node.warn(texts('log.watchNotKept'));

		const problem = configProblem(config);
		if (problem) {
			node.status({ fill: 'red', shape: 'ring', text: problem.message });
			return;
		}
		if (!events.length || !statuses.length) {
			node.status({ fill: 'red', shape: 'ring', text: texts('status.chooseEvents') });
			return;
		}

		const notices = new Notices(WHO);
		const poll = async () => {
			try {
				const stored = migrateWatchState(await load(context, store));
				const { budget } = config!.clientFor(undefined);
				const sources = taskSources(config!.apiClient(), { signal: closing.signal, budget });
				const watched = await watchOnce(
					sources,
					stored,
					{ kinds: events, statuses: new Set(statuses), deadline: Date.now() + POLL_BUDGET_MS },
					messages,
				);
				for (const { level, text } of notices.after(watched.reports, sources))
					if (level === 'warn') node.warn(text);
					else node.log(text);
				// Saved before sending: a crash in between loses a message rather than sending it twice.
				await save(context, store, watched.state);
				for (const { kind, task } of watched.items)
					node.send({ topic: kind, event: kind, status: task.status, payload: task });
				const sent = watched.items.length;
				node.status({
					fill: 'green',
					shape: persistent ? 'dot' : 'ring',
					text: kept(
						sent
							? texts('status.sent', { text: texts('status.watching'), sent })
							: texts('status.watching'),
					),
				});
			} catch (error) {
				if (isAborted(error) && closing.signal.aborted) return;
				const described = describe(error, config!.secrets());
				node.status({
					fill: 'red',
					shape: 'ring',
					text: texts('status.pollFailed', { reason: described.message.slice(0, 50) }),
				});
				node.error(
					described.hint
						? texts('log.withHint', { message: described.message, hint: described.hint })
						: described.message,
				);
			}
		};

		const schedule = (ms: number) => {
			if (closing.signal.aborted) return;
			timer = setTimeout(() => {
				polling = poll().finally(() => schedule(intervalMs));
			}, ms);
		};
		node.status({ fill: 'blue', shape: 'ring', text: kept(texts('status.starting')) });
		schedule(0);

		node.on('close', (_removed: boolean, done: () => void) => {
			closing.abort();
			clearTimeout(timer);
			const timeout = setTimeout(done, 10_000);
			void Promise.resolve(polling).finally(() => {
				clearTimeout(timeout);
				done();
			});
		});
	}
	RED.nodes.registerType('visionstory-watch', VisionStoryWatch);
}

async function load(context: NodeContext, store: string | undefined): Promise<unknown> {
	return await new Promise<unknown>((resolve, reject) =>
		context.get(STATE_KEY, store, (error, v) => (error ? reject(error) : resolve(v))),
	);
}

async function save(
	context: NodeContext,
	store: string | undefined,
	state: unknown,
): Promise<void> {
	await new Promise<void>((resolve, reject) =>
		context.set(STATE_KEY, state, store, (error) => (error ? reject(error) : resolve())),
	);
}
