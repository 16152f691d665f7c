import type { TaskStatus } from '../contract';
import { isFinished, RENDERING_STATUSES } from '../contract';
import { isComplete } from '../taskReads';
import type { TaskKind, VideoTask } from '../tasks';
import { RULES } from '../intents';
import { MAX_LINKLESS_READS } from '../tasks';
import type { Gap, KindCursor, ListState, Mark, Pending } from './cursor';
import {
	advanceMark,
	createdAt,
	EMPTY_MARK,
	keepLast,
	LIMITS,
	raiseTo,
	step,
	stopAt,
} from './cursor';
import type { Listed, TaskSource } from './sources';
import { hasStatus, settled, UnusableList } from './sources';

/** How much one poll may still fetch for one kind: pages, and a deadline shared by all kinds. */
export class Allowance {
	constructor(
		private pages: number,
		private readonly deadline: number,
	) {}

	/** Another page count under the same deadline. */
	withPages(pages: number): Allowance {
		return new Allowance(pages, this.deadline);
	}

	hasTime(): boolean {
		return Date.now() < this.deadline;
	}

	takePage(): boolean {
		if (this.pages <= 0 || !this.hasTime()) return false;
		this.pages--;
		return true;
	}
}

/** Where a walk goes on: entries already read but not looked at, then the page at `cursor`. */
interface Position {
	cursor: number;
	carried: Listed[];
	/** No page after the carried entries. */
	end: boolean;
}

const TOP: Position = { cursor: 0, carried: [], end: false };

interface WalkResult {
	/** Tasks met that the mark had not seen, newest first. */
	taken: Listed[];
	/** Every task met above the stop, taken or already seen, newest first. */
	met: Listed[];
	/** Reached the stop, a seen task (with `untilSeen`) or the end of the list; otherwise `cursor` is where to go on. */
	done: boolean;
	cursor: number;
	/** With `untilSeen`: where the first task already seen was met, to scan the overlap window from. */
	seenAt?: Position;
	/**
	 * The list answered a page it had given already although it said there was more: it ignores the
	 * cursor, and what lies below that page cannot be read from it.
	 */
	repeated?: boolean;
	/** A page after the first gave tasks not met before: the list follows its cursor. */
	paged?: boolean;
}

interface WalkOptions {
	/** End at the first task already seen, rather than skip it and go on through the overlap window. */
	untilSeen?: boolean;
	status?: TaskStatus[];
	/** How many new tasks the walk may take; past it, no further page is read. */
	room?: Room;
}

/**
 * What a walk may take in one poll. Past it the rest of the list is left for a later poll (a gap, read
 * again from its cursor) rather than taken and then dropped: `finished` tasks (and those whose status
 * the list does not give) up to what the hand-over passes on, any task up to the room left in the
 * pending list. A page is read whole, so a walk may go past either by one page.
 */
export interface Room {
	finished: number;
	all: number;
}

/** Tasks that count against the hand-over's room: finished, or of a status the list does not give. */
function finishedCount(taken: readonly Listed[]): number {
	return taken.filter((task) => !hasStatus(task) || isFinished(task)).length;
}

function roomLeft(room: Room | undefined, taken: readonly Listed[]): boolean {
	if (room === undefined) return true;
	if (room.all <= 0 || room.finished <= 0) return false;
	return taken.length === 0 || (finishedCount(taken) < room.finished && taken.length < room.all);
}

/**
 * Pages down a newest-first list from `start` until `stop` (or the end, or the allowance). With a
 * status filter, a page without statuses ends the walk: the service ignores the filter and the
 * entries cannot say what it asked.
 */
async function walk(
	source: TaskSource,
	start: Position,
	stop: Mark | undefined,
	allowance: Allowance,
	options: WalkOptions = {},
): Promise<WalkResult> {
	const taken: Listed[] = [];
	const met: Listed[] = [];
	const metIds = new Set<string>();
	const mark = stop && stopAt(stop);
	let { cursor, carried: entries, end } = start;
	let pages = 0;
	let paged = false;
	let loops = false;
	const result = (done: boolean, more: Partial<WalkResult> = {}): WalkResult => ({
		taken,
		met,
		done,
		cursor,
		paged,
		...more,
	});
	for (;;) {
		let fresh = 0;
		for (const [i, task] of entries.entries()) {
			// A service without paging, or one that ignores the cursor, shows the same tasks again.
			if (metIds.has(task.video_id)) continue;
			const next = mark ? step(mark, task) : 'take';
			if (next === 'stop') return result(true);
			if (next === 'skip' && options.untilSeen)
				return result(true, { seenAt: { cursor, carried: entries.slice(i), end } });
			metIds.add(task.video_id);
			met.push(task);
			fresh++;
			if (next === 'take') taken.push(task);
		}
		if (pages > 1 && fresh > 0) paged = true;
		// A page of tasks all met already is the same page again (whatever its next_cursor says), and
		// so is one that points back at the cursor it was asked with; an empty one is the end.
		if (pages > 0 && (fresh === 0 || loops)) return result(true, { repeated: entries.length > 0 });
		if (end) return result(true);
		const limit = cursor ? LIMITS.pageSize : LIMITS.firstPageSize;
		if (!roomLeft(options.room, taken) || !allowance.takePage()) return result(false);
		const page = await source.list({ cursor: cursor || undefined, limit, status: options.status });
		if (options.status && !page.videos.every(hasStatus)) return result(true);
		const next = page.next_cursor ?? 0;
		entries = page.videos;
		loops = cursor !== 0 && next === cursor;
		end = !next || loops;
		cursor = next;
		pages++;
	}
}

/** What a list's entries say of its shape; a poll that met none keeps what the last one learned. */
function shapeOf(met: readonly Listed[], previous: ListState): ListState {
	if (met.some((task) => !hasStatus(task))) return 'idsOnly';
	if (met.length > 0) return 'full';
	return previous === 'unusable' ? 'full' : previous;
}

/**
 * Reads watched tasks from the top of the list, 100 a request, while looking them up one by one would
 * cost more requests. Stops once the page passes the oldest of them (when every one has a creation
 * time), or at the end of the list or the allowance; what it did not meet is checked one by one.
 */
async function refreshFromList(
	source: TaskSource,
	waiting: readonly Pending[],
	allowance: Allowance,
): Promise<Map<string, VideoTask>> {
	const found = new Map<string, VideoTask>();
	const wanted = new Set(waiting.map((p) => p.id));
	const times = waiting.map((p) => p.at);
	const oldest = times.every((at): at is number => at !== null) ? Math.min(...times) : null;
	const worthIt = () => Math.ceil(wanted.size / source.checkBatch) > LIMITS.checkRequestsBeforeList;
	const seen = new Set<string>();
	let cursor = 0;
	while (worthIt() && allowance.takePage()) {
		const listed = await settled(
			source.list({ cursor: cursor || undefined, limit: LIMITS.pageSize }),
		);
		// The list turned unusable after the walk (a 404 within the poll): the rest are read by id.
		if ('error' in listed && listed.error instanceof UnusableList) break;
		if ('error' in listed) throw listed.error;
		const page = listed.value;
		let fresh = 0;
		for (const task of page.videos) {
			if (seen.has(task.video_id)) continue;
			seen.add(task.video_id);
			fresh++;
			if (hasStatus(task) && wanted.delete(task.video_id)) found.set(task.video_id, task);
		}
		const last = page.videos.at(-1);
		const lastAt = last ? createdAt(last) : null;
		if (oldest !== null && lastAt !== null && lastAt < oldest) break;
		const next = page.next_cursor ?? 0;
		if (!next || next === cursor || fresh === 0) break;
		cursor = next;
	}
	return found;
}

function interleave<T>(a: readonly T[], b: readonly T[]): T[] {
	const out: T[] = [];
	for (let i = 0; i < Math.max(a.length, b.length); i++) {
		if (i < a.length) out.push(a[i]);
		if (i < b.length) out.push(b[i]);
	}
	return out;
}

function pendingOf(task: Listed): Pending {
	return { id: task.video_id, at: createdAt(task), misses: 0 };
}

interface Placement {
	head: Mark;
	pending: Pending[];
	list: ListState;
}

/**
 * Where a kind stands once its list first answers: nothing emitted, but what is rendering is watched,
 * and the tasks of the overlap window below the newest are remembered as seen.
 */
async function place(source: TaskSource, allowance: Allowance): Promise<Placement> {
	// Rendering tasks first, then the head: a task created in between is then above the head and
	// found by the next poll, rather than missed.
	const rendering = await walk(source, TOP, undefined, allowance, {
		status: [...RENDERING_STATUSES],
	});
	const top = await source.list({ limit: LIMITS.firstPageSize });
	let head = advanceMark(top.videos, EMPTY_MARK);
	const met = [...top.videos];
	const last = top.videos.at(-1);
	const lastAt = last ? createdAt(last) : null;
	const next = top.next_cursor ?? 0;
	// The rest of the window, so a task listed late in it is told apart from those already there.
	if (
		next &&
		head.from !== null &&
		lastAt !== null &&
		lastAt >= head.from - LIMITS.overlapSeconds
	) {
		const rest = await walk(source, { cursor: next, carried: [], end: false }, head, allowance);
		met.push(...rest.taken);
		head = advanceMark(rest.taken, head);
		if (!rest.done) head = raiseTo(head, met);
	}
	const pending = new Map<string, Pending>();
	for (const task of [...rendering.met, ...met])
		if (hasStatus(task) && !isFinished(task)) pending.set(task.video_id, pendingOf(task));
	// A list without statuses: the newest are read by id to learn which are still rendering.
	const unread = met.filter((task) => !hasStatus(task)).slice(0, source.checksPerPoll);
	if (unread.length > 0) {
		const read = await source.check(unread.map((task) => task.video_id));
		for (const task of read.values())
			if (!isFinished(task)) pending.set(task.video_id, pendingOf(task));
	}
	return {
		head,
		pending: keepLast([...pending.values()], LIMITS.pendingMax),
		list: shapeOf([...rendering.met, ...met], 'full'),
	};
}

/** A kind's cursor at activation, and why its list cannot be used when it cannot. */
export interface Started {
	cursor: KindCursor;
	reason?: string;
}

export async function startKind(source: TaskSource, allowance: Allowance): Promise<Started> {
	const placed = await settled(place(source, allowance));
	if ('value' in placed) return { cursor: { ...placed.value, gaps: [], emitted: [] } };
	if (!(placed.error instanceof UnusableList)) throw placed.error;
	return {
		cursor: { head: null, gaps: [], pending: [], emitted: [], list: 'unusable' },
		reason: placed.error.reason,
	};
}

interface Walked {
	taken: Listed[];
	met: Listed[];
	head: Mark | null;
	gaps: Gap[];
	placed: Pending[];
	list: ListState;
	missed?: Missed;
}

/**
 * New tasks a list that ignores its cursor showed on its one page, when that page did not reach the
 * tasks seen before: those created between `since` and `before` could not be read, and may have
 * finished unseen. How many there are the service does not say.
 */
export interface Missed {
	read: number;
	/** The newest `created_at` seen before this poll (null: unknown). */
	since: number | null;
	/** The oldest `created_at` on the page (null: unknown). */
	before: number | null;
}

/** What walks that met a page again read, and the stretch below it they could not. */
function missedOn(repeated: ReadonlyArray<{ walked: WalkResult; stop: Mark }>): Missed {
	const times = repeated.flatMap(({ walked }) =>
		walked.met.flatMap((task) => createdAt(task) ?? []),
	);
	const since = repeated.flatMap(({ stop }) => (stop.at === null ? [] : [stop.at]));
	return {
		read: repeated.reduce((sum, { walked }) => sum + walked.taken.length, 0),
		since: since.length > 0 ? Math.min(...since) : null,
		before: times.length > 0 ? Math.min(...times) : null,
	};
}

/** New tasks a poll's walks may take: what the hand-over passes on, and the room in the pending list. */
function roomFor(cursor: KindCursor): Room {
	return { finished: LIMITS.emitPerPoll, all: LIMITS.pendingMax - cursor.pending.length };
}

function roomAfter(room: Room, taken: readonly Listed[]): Room {
	return { finished: room.finished - finishedCount(taken), all: room.all - taken.length };
}

/**
 * The list part of a poll, or the place when there is none yet. First what is new above the head,
 * then the stretches earlier polls left (gaps), then, with what the allowance leaves, the overlap
 * window below the head for tasks listed late; a window cut short is looked at again next poll.
 */
async function walkList(
	source: TaskSource,
	cursor: KindCursor,
	allowance: Allowance,
): Promise<Walked> {
	if (cursor.head === null) {
		const placed = await place(source, allowance);
		return {
			taken: [],
			met: [],
			head: placed.head,
			gaps: [],
			placed: placed.pending,
			list: placed.list,
		};
	}
	const room = roomFor(cursor);
	// With every gap slot used, nothing new is taken above the head: the head stays where it is and
	// the stretch above it is read once the gaps are walked, rather than a gap being dropped.
	const head = await walk(source, TOP, cursor.head, allowance, {
		untilSeen: true,
		room: cursor.gaps.length >= LIMITS.gapsMax ? { finished: 0, all: 0 } : room,
	});
	const gaps: Gap[] = [];
	// The allowance ran out above the old head: the stretch in between is walked in later polls.
	if (!head.done && head.cursor !== 0) gaps.push({ cursor: head.cursor, stop: cursor.head });
	const taken = [...head.taken];
	const met = [...head.met];
	// Walks that met a page again: what they read, and the mark they did not reach.
	const repeated: Array<{ walked: WalkResult; stop: Mark }> = head.repeated
		? [{ walked: head, stop: cursor.head }]
		: [];
	for (const gap of cursor.gaps) {
		const rest = await walk(
			source,
			{ cursor: gap.cursor, carried: [], end: false },
			gap.stop,
			allowance,
			{ untilSeen: true, room: roomAfter(room, taken) },
		);
		taken.push(...rest.taken);
		met.push(...rest.met);
		if (!rest.done) gaps.push({ cursor: rest.cursor, stop: gap.stop });
		if (rest.repeated) repeated.push({ walked: rest, stop: gap.stop });
	}
	if (head.seenAt) {
		const overlap = await walk(source, head.seenAt, cursor.head, allowance);
		taken.push(...overlap.taken);
		met.push(...overlap.met);
	}
	const firstPageOnly = repeated.length > 0;
	// Known to ignore its cursor and not shown otherwise this poll (the walk ended on its first page).
	const stillFirstPageOnly = cursor.list === 'firstPageOnly' && !head.paged;
	return {
		taken,
		met,
		head: advanceMark(head.met, cursor.head, met.slice(head.met.length)),
		gaps: gaps.slice(0, LIMITS.gapsMax),
		placed: [],
		list: firstPageOnly || stillFirstPageOnly ? 'firstPageOnly' : shapeOf(met, cursor.list),
		...(firstPageOnly ? { missed: missedOn(repeated) } : {}),
	};
}

/** One kind's poll before the hand-over: the next cursor without this poll's emissions, and what is ready. */
export interface KindPoll {
	kind: TaskKind;
	head: Mark | null;
	gaps: Gap[];
	pending: Pending[];
	emitted: string[];
	ready: VideoTask[];
	list: ListState;
	/** Why the list could not be used, when it could not. */
	reason?: string;
	missed?: Missed;
	/** Ready tasks whose file failed to download in earlier polls: how many polls. */
	failedDownloads: ReadonlyMap<string, number>;
}

export async function pollKind(
	source: TaskSource,
	cursor: KindCursor,
	statuses: ReadonlySet<string>,
	allowance: Allowance,
): Promise<KindPoll> {
	const listed = await settled(walkList(source, cursor, allowance));
	if ('error' in listed && !(listed.error instanceof UnusableList)) throw listed.error;
	// A list that cannot be used shows nothing new; the tasks already known are still read by id below.
	const reason = 'error' in listed ? (listed.error as UnusableList).reason : undefined;
	const walked: Walked =
		'value' in listed
			? listed.value
			: { ...cursor, taken: [], met: [], placed: [], list: 'unusable' };

	const emitted = new Set(cursor.emitted);
	const taken = new Set(walked.taken.map((task) => task.video_id));
	// New in a list without statuses: read by id to learn where they are.
	const unread = walked.taken.filter((task) => !hasStatus(task) && !emitted.has(task.video_id));
	const queue = new Map<string, Pending>(
		[...unread.map(pendingOf), ...cursor.pending, ...walked.placed].map((p) => [p.id, p]),
	);
	const ready = new Map<string, VideoTask>();
	const refreshed = new Set<string>();
	/** `byId`: read by id rather than met in the list. */
	const settle = (task: VideoTask, byId: boolean) => {
		const id = task.video_id;
		const known = queue.get(id);
		const waitsForLink =
			!isComplete(task) && statuses.has(task.status) && !emitted.has(id) && !ready.has(id);
		// Created means its link is set (the contract). A list entry may leave the link out: it is read
		// by id (not marked refreshed). Read so, it waits a few polls for the link, then goes out without.
		if (waitsForLink && !byId) {
			if (!known) queue.set(id, pendingOf(task));
			return;
		}
		refreshed.add(id);
		queue.delete(id);
		const linkless = waitsForLink ? (known?.linkless ?? 0) + 1 : 0;
		if (linkless > 0 && linkless <= MAX_LINKLESS_READS)
			queue.set(id, { ...pendingOf(task), linkless });
		else if (emitted.has(id) || ready.has(id)) return;
		else if (statuses.has(task.status)) ready.set(id, task);
		// Queued, creating, or a status this version does not know: watched until it finishes.
		else if (!isFinished(task)) queue.set(id, pendingOf(task));
	};
	// New tasks, and known ones the walk met again in the overlap window (their status for free).
	for (const task of walked.met)
		if (hasStatus(task) && (taken.has(task.video_id) || queue.has(task.video_id)))
			settle(task, false);

	let waiting = [...queue.values()].filter((p) => !refreshed.has(p.id));
	if (walked.list === 'full') {
		const fromList = await refreshFromList(
			source,
			waiting,
			allowance.withPages(LIMITS.refreshPagesPerPoll),
		);
		for (const task of fromList.values()) settle(task, false);
		waiting = waiting.filter((p) => !refreshed.has(p.id));
	}
	// Tasks never read and those read least recently take turns, so under load neither waits forever.
	const firstRead = new Set(unread.map((task) => task.video_id));
	const order = interleave(
		waiting.filter((p) => firstRead.has(p.id)),
		waiting.filter((p) => !firstRead.has(p.id)),
	);
	const toCheck = allowance.hasTime() ? order.slice(0, source.checksPerPoll) : [];
	if (toCheck.length > 0) {
		const answers = await source.check(toCheck.map((p) => p.id));
		const now = Date.now();
		for (const entry of toCheck) {
			const task = answers.get(entry.id);
			if (task) settle(task, true);
			else {
				// Missing proves little (a replica behind, a 404 for a while): only the rule's evidence drops it.
				const missed = { ...entry, misses: entry.misses + 1, missedAt: entry.missedAt ?? now };
				queue.delete(entry.id);
				if (!RULES.watchedGone(missed, now)) queue.set(entry.id, missed);
			}
		}
	}

	const failedDownloads = new Map<string, number>();
	for (const entry of cursor.pending)
		if (entry.failedDownloads && ready.has(entry.id))
			failedDownloads.set(entry.id, entry.failedDownloads);
	return {
		kind: source.kind,
		head: walked.head,
		gaps: walked.gaps,
		pending: [...queue.values()],
		emitted: cursor.emitted,
		ready: [...ready.values()],
		list: walked.list,
		...(reason !== undefined ? { reason } : {}),
		...(walked.missed ? { missed: walked.missed } : {}),
		failedDownloads,
	};
}

/** A ready task kept back for the next poll; `failedDownloads` when its file could not be fetched. */
export interface Held {
	task: VideoTask;
	failedDownloads?: number;
}

/**
 * The kind's cursor once `emitted` were handed over and `held` were kept back for the next poll.
 * Nothing is dropped to keep the pending list short: the walks take no more than leaves it room.
 */
export function settleKind(
	poll: KindPoll,
	emitted: readonly string[],
	held: readonly Held[],
): KindCursor {
	const pending = new Map(poll.pending.map((p) => [p.id, p]));
	for (const { task, failedDownloads } of held)
		pending.set(task.video_id, {
			...pendingOf(task),
			// One held without its link has had its reads: the next read hands it over, link or not.
			...(isComplete(task) ? {} : { linkless: MAX_LINKLESS_READS }),
			...(failedDownloads ? { failedDownloads } : {}),
		});
	return {
		head: poll.head,
		gaps: poll.gaps,
		pending: [...pending.values()],
		emitted: keepLast([...poll.emitted, ...emitted], LIMITS.emittedMax),
		list: poll.list,
	};
}

/** The newest task of the chosen statuses of one kind, for "Fetch Test Event". */
export async function latestFinished(
	source: TaskSource,
	statuses: ReadonlySet<string>,
	allowance: Allowance,
): Promise<VideoTask | undefined> {
	const status = [...statuses] as TaskStatus[];
	let cursor = 0;
	while (allowance.takePage()) {
		const page = await source.list({
			cursor: cursor || undefined,
			limit: LIMITS.firstPageSize,
			status,
		});
		// Entries without a status, or created without the link, are read by id to learn it.
		const unread = page.videos
			.filter((task) => !hasStatus(task) || !isComplete(task))
			.map((task) => task.video_id);
		const read = unread.length > 0 ? await source.check(unread) : new Map<string, VideoTask>();
		for (const entry of page.videos) {
			const task = read.get(entry.video_id) ?? (hasStatus(entry) ? entry : undefined);
			if (task && statuses.has(task.status)) return task;
		}
		const next = page.next_cursor ?? 0;
		if (!next || next === cursor) return undefined;
		cursor = next;
	}
	return undefined;
}
