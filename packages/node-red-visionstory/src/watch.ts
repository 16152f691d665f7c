/**
 * The watch node: starts a flow once for every video task that reaches a chosen status (created,
 * failed) after the node was deployed. What it has seen is kept in the node's context; with a
 * persistent context store (localfilesystem) it survives restarts, so nothing is sent twice or missed
 * while Node-RED was down. Without one, the status ring and the log say so.
 */
import type { TaskKind, VideoTask } from './api';
import { isAborted, isFinished, readTasks } from './api';
import type { ConfigNode } from './config';
import { configProblem } from './config';
import { describe } from './errors';
import type { ContextStore, Node, RED } from './red';

export const WATCH_EVENTS = ['talkingVideo', 'aiVideo'] as const;
export const WATCH_STATUSES = ['created', 'failed'] as const;
export const MIN_POLL_SECONDS = 5;
const STATE_KEY = 'visionstory-watch';
const PAGE_SIZE = 100;
const MAX_PAGES = 10;
/** Tasks created in the same second all stay at the mark, up to this many. */
const MARK_IDS = 200;
const EMITTED_MAX = 500;
const PENDING_MAX = 2000;

interface KindState {
	/** The newest tasks already looked at: a walk down the list stops there. */
	mark: { ids: string[]; at: number | null };
	/** Tasks seen unfinished: read again each poll until they finish. */
	pending: string[];
	/** Recently sent ids: a task is never sent twice. */
	emitted: string[];
}
interface WatchState {
	version: 1;
	kinds: Partial<Record<TaskKind, KindState>>;
}

export interface WatchProps {
	config?: string;
	events?: string[] | string;
	statuses?: string[] | string;
	pollIntervalSeconds?: string | number;
}

function listOf(value: unknown, allowed: readonly string[]): string[] {
	const list = Array.isArray(value) ? value.map(String) : String(value ?? '').split(',');
	return list.map((v) => v.trim()).filter((v) => allowed.includes(v));
}

/** The context store that survives a restart: the default one when persistent, else the first persistent one. */
export function persistentStore(RED: RED): { store?: string; persistent: boolean } {
	const stores = RED.settings.contextStorage ?? {};
	const moduleOf = (name: string): unknown => {
		let entry = stores[name];
		if (typeof entry === 'string') entry = stores[entry];
		return typeof entry === 'object' ? entry?.module : undefined;
	};
	const persistent = (name: string) => {
		const module = moduleOf(name);
		return module !== undefined && module !== 'memory';
	};
	const names = Object.keys(stores);
	const defaultName = 'default' in stores ? 'default' : names[0];
	if (defaultName && persistent(defaultName)) return { persistent: true };
	const other = names.find(persistent);
	return other ? { store: other, persistent: true } : { persistent: false };
}

const createdAt = (task: VideoTask) =>
	typeof task.created_at === 'number' && task.created_at > 0 ? task.created_at : null;
const reaches = (mark: KindState['mark'], task: VideoTask) =>
	mark.ids.includes(task.video_id) ||
	(mark.at !== null && createdAt(task) !== null && createdAt(task)! < mark.at);

export function registerWatch(RED: RED): void {
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
		const keptNote = persistent ? '' : ' · not kept across restarts';
		if (!persistent)
			node.warn(
				'No persistent context store is configured (contextStorage in settings.js), so what this node has seen is lost on restart: tasks finishing while Node-RED is down are not sent, and a restart starts watching anew.',
			);

		const problem = configProblem(config);
		if (problem) {
			node.status({ fill: 'red', shape: 'ring', text: problem.message });
			return;
		}
		if (!events.length || !statuses.length) {
			node.status({ fill: 'red', shape: 'ring', text: 'choose at least one event and one status' });
			return;
		}

		const poll = async () => {
			try {
				const state = await load(context, store);
				const found: Array<{ kind: TaskKind; task: VideoTask }> = [];
				for (const kind of events) {
					const { kindState, finished } = await pollKind(
						config!,
						kind,
						state.kinds[kind],
						closing.signal,
					);
					state.kinds[kind] = kindState;
					for (const task of finished) {
						if (!statuses.includes(task.status)) continue;
						found.push({ kind, task });
					}
				}
				for (const { kind, task } of found) {
					const emitted = state.kinds[kind]!.emitted;
					emitted.push(task.video_id);
					if (emitted.length > EMITTED_MAX) emitted.splice(0, emitted.length - EMITTED_MAX);
				}
				// Saved before sending: a crash in between loses a message rather than sending it twice.
				await save(context, store, state);
				for (const { kind, task } of found)
					node.send({ topic: kind, event: kind, status: task.status, payload: task });
				node.status({
					fill: 'green',
					shape: persistent ? 'dot' : 'ring',
					text: `watching${found.length ? ` · ${found.length} sent` : ''}${keptNote}`,
				});
			} catch (error) {
				if (isAborted(error) && closing.signal.aborted) return;
				const described = describe(error, config!.secrets());
				node.status({
					fill: 'red',
					shape: 'ring',
					text: `poll failed: ${described.message.slice(0, 50)}`,
				});
				node.error(`${described.message}${described.hint ? `. ${described.hint}` : ''}`);
			}
		};

		const schedule = (ms: number) => {
			if (closing.signal.aborted) return;
			timer = setTimeout(() => {
				polling = poll().finally(() => schedule(intervalMs));
			}, ms);
		};
		node.status({ fill: 'blue', shape: 'ring', text: `starting${keptNote}` });
		schedule(0);

		node.on('close', (_removed, done) => {
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

async function load(context: ContextStore, store: string | undefined): Promise<WatchState> {
	const value = await new Promise<unknown>((resolve, reject) =>
		context.get(STATE_KEY, store, (error, v) => (error ? reject(error) : resolve(v))),
	);
	const state = value as WatchState | undefined;
	return state && state.version === 1 && typeof state.kinds === 'object'
		? (JSON.parse(JSON.stringify(state)) as WatchState)
		: { version: 1, kinds: {} };
}

async function save(
	context: ContextStore,
	store: string | undefined,
	state: WatchState,
): Promise<void> {
	await new Promise<void>((resolve, reject) =>
		context.set(STATE_KEY, state, store, (error) => (error ? reject(error) : resolve())),
	);
}

/**
 * One kind's poll: walk the list from the newest task down to the mark; tasks finished there, and
 * pending ones read now finished, are returned (never one already sent). The first poll only sets
 * the mark and notes what is still rendering.
 */
async function pollKind(
	config: ConfigNode,
	kind: TaskKind,
	previous: KindState | undefined,
	signal: AbortSignal,
): Promise<{ kindState: KindState; finished: VideoTask[] }> {
	const { client, budget } = config.clientFor(undefined);
	const first = previous === undefined;
	const state: KindState = previous ?? { mark: { ids: [], at: null }, pending: [], emitted: [] };
	const walked: VideoTask[] = [];
	let cursor: number | undefined;
	for (let page = 0; page < (first ? 1 : MAX_PAGES); page++) {
		const answer =
			kind === 'talkingVideo'
				? await client.listTalkingVideos({ cursor, limit: PAGE_SIZE }, { signal, budget })
				: await client.listAiVideos({ cursor, limit: PAGE_SIZE }, { signal, budget });
		let reached = false;
		for (const task of answer.videos as VideoTask[]) {
			if (!first && reaches(state.mark, task)) {
				reached = true;
				break;
			}
			if (!walked.some((w) => w.video_id === task.video_id)) walked.push(task);
		}
		const next = answer.next_cursor;
		// next_cursor 0 (or none) means no more pages.
		if (
			reached ||
			typeof next !== 'number' ||
			next <= 0 ||
			answer.videos.length === 0 ||
			next === cursor
		)
			break;
		cursor = next;
	}
	const finished: VideoTask[] = [];
	const sent = new Set(state.emitted);
	const pending = new Set(state.pending);
	for (const task of walked) {
		if (!isFinished(task)) pending.add(task.video_id);
		else if (!first && !sent.has(task.video_id)) {
			finished.push(task);
			pending.delete(task.video_id);
		} else pending.delete(task.video_id);
	}
	const walkedIds = new Set(walked.map((t) => t.video_id));
	const toRead = first ? [] : [...pending].filter((id) => !walkedIds.has(id));
	if (toRead.length) {
		const read = await readTasks(client, kind, toRead, { signal, budget });
		for (const id of toRead) {
			const task = read.get(id);
			if (task === undefined) pending.delete(id);
			else if (!(task instanceof Error) && isFinished(task)) {
				pending.delete(id);
				if (!sent.has(id) && !finished.some((f) => f.video_id === id)) finished.push(task);
			}
		}
	}
	const at = walked.length ? createdAt(walked[0]) : state.mark.at;
	const ids = [...new Set([...walked.map((t) => t.video_id), ...state.mark.ids])].slice(
		0,
		MARK_IDS,
	);
	return {
		kindState: {
			mark: { ids, at },
			pending: [...pending].slice(-PENDING_MAX),
			emitted: state.emitted,
		},
		finished,
	};
}
