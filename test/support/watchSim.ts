// A simulated VisionStory service for the watcher's tests: each kind of task as a TaskSource over
// plain objects (no HTTP: thousands of polls a second), varying what the contract leaves open.
import { VisionStoryError } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/errors';
import type {
	TaskKind,
	VideoTask,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/tasks';
import { LIMITS } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/watch/cursor';
import type {
	ListRequest,
	Page,
	TaskSource,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/watch/sources';
import {
	listTolerant,
	readPage,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/watch/sources';

/** Entries a list that ignores its cursor answers, like the emulator's `ignoresCursor`. */
export const FIRST_PAGE_ONLY = 20;

/**
 * `firstPageOnly`: the newest 20 whatever the cursor, limit and status say (a list that ignores
 * `cursor`); `forbidden`: every request of the kind answers 403 (AI video needs a paid beta). */
export type Shape = 'full' | 'idsOnly' | 'firstPageOnly' | 'absent' | 'forbidden';
export interface ServiceOptions {
	shape: Shape;
	/** `added`: newest added first (keyset cursor); `createdAt`: by created_at (offset cursor). */
	order: 'added' | 'createdAt';
	/** created_at is up to this many seconds before the task was added. */
	skew: number;
	/** `none`: every created_at is 0, as the contract allows for AI videos whose time is unknown. */
	times: 'set' | 'none';
	/** From this step of the scenario on, the list answers 404 for good (null: never). */
	goneAt: number | null;
}

/** What goes wrong in one poll for one kind. */
export interface Fault {
	list: 'ok' | 'fails' | 'absent';
	/** List requests that succeed before `list` applies. */
	after: number;
	checks: 'ok' | 'fail';
}
export const OK: Fault = { list: 'ok', after: 0, checks: 'ok' };

export interface SimTask {
	id: string;
	seq: number;
	createdAt: number;
	/** Seconds between its created_at and when it was added to the list. */
	late: number;
	finishesAt: number;
	fails: boolean;
	deleted: boolean;
}

export function serviceError(status: number): VisionStoryError {
	return new VisionStoryError({ category: 'api', status, message: `HTTP ${status}` });
}

/** One kind of task at a service, as a TaskSource over plain objects (no HTTP: thousands of polls a second). */
export class SimKind implements TaskSource {
	readonly endpoints = { noun: 'videos', list: 'the list', read: 'by id' };
	readonly checksPerPoll: number;
	readonly checkBatch: number;
	readonly tasks: SimTask[] = [];
	fault: Fault = OK;
	/** The scenario's step, for `goneAt`. */
	step = 0;
	private listCalls = 0;

	constructor(
		readonly kind: TaskKind,
		private readonly options: ServiceOptions,
		private readonly clock: { now: number; seq: number },
	) {
		this.checksPerPoll = kind === 'aiVideo' ? LIMITS.aiChecksPerPoll : LIMITS.talkingChecksPerPoll;
		this.checkBatch = kind === 'aiVideo' ? 20 : 1;
	}

	startPoll(fault: Fault): void {
		this.fault = fault;
		this.listCalls = 0;
	}

	create(renderSeconds: number, fails: boolean, skew: number): SimTask {
		const seq = ++this.clock.seq;
		const late = Math.min(skew, this.options.skew);
		const task = {
			id: `${this.kind}_${seq}`,
			seq,
			createdAt: Math.floor(this.clock.now) - late,
			late,
			finishesAt: this.clock.now + renderSeconds,
			fails,
			deleted: false,
		};
		this.tasks.push(task);
		return task;
	}

	gone(): boolean {
		return this.options.goneAt !== null && this.step >= this.options.goneAt;
	}

	status(task: SimTask): string {
		if (this.clock.now < task.finishesAt) return 'creating';
		return task.fails ? 'failed' : 'created';
	}

	private reportedAt(task: SimTask): number {
		return this.options.times === 'none' ? 0 : task.createdAt;
	}

	private dto(task: SimTask): VideoTask {
		const status = this.status(task);
		return {
			video_id: task.id,
			model_id: 'sim-model',
			status,
			created_at: this.reportedAt(task),
			video_url: status === 'created' ? `https://cdn.example/${task.id}.mp4` : null,
		};
	}

	async list(request: ListRequest): Promise<Page> {
		// The answer's JSON goes through the trigger's own reading of list answers.
		return await listTolerant(async (r) => readPage(this.kind, await this.answer(r)), request);
	}

	private async answer(asked: Partial<ListRequest>): Promise<unknown> {
		if (this.options.shape === 'forbidden') throw serviceError(403);
		if (this.options.shape === 'absent' || this.gone()) throw serviceError(404);
		if (this.listCalls++ >= this.fault.after && this.fault.list !== 'ok')
			throw serviceError(this.fault.list === 'absent' ? 404 : 503);
		const live = this.tasks.filter((t) => !t.deleted);
		if (this.options.shape === 'firstPageOnly') {
			const top = live.sort((a, b) => b.seq - a.seq).slice(0, FIRST_PAGE_ONLY);
			return {
				videos: top.map((t) => this.dto(t)),
				next_cursor: live.length > top.length ? top.at(-1)!.seq : 0,
			};
		}
		const limit = asked.limit ?? 20;
		const idsOnly = this.options.shape === 'idsOnly';
		const rows =
			this.options.order === 'added'
				? live.sort((a, b) => b.seq - a.seq)
				: live.sort((a, b) => this.reportedAt(b) - this.reportedAt(a) || b.seq - a.seq);
		const filtered =
			asked.status && !idsOnly
				? rows.filter((t) => (asked.status as string[]).includes(this.status(t)))
				: rows;
		const entry = (t: SimTask) =>
			idsOnly ? { video_id: t.id, created_at: this.reportedAt(t) } : this.dto(t);
		const cursor = asked.cursor ?? 0;
		if (this.options.order === 'createdAt') {
			const page = filtered.slice(cursor, cursor + limit);
			const next = cursor + page.length;
			return { videos: page.map(entry), next_cursor: next < filtered.length ? next : 0 };
		}
		const after = cursor > 0 ? filtered.filter((t) => t.seq < cursor) : filtered;
		const page = after.slice(0, limit);
		return {
			videos: page.map(entry),
			next_cursor: after.length > page.length ? page[page.length - 1].seq : 0,
		};
	}

	async check(ids: string[]): Promise<Map<string, VideoTask>> {
		if (this.options.shape === 'forbidden') throw serviceError(403);
		if (this.fault.checks === 'fail') throw serviceError(503);
		const found = new Map<string, VideoTask>();
		const wanted = new Set(ids);
		for (const task of this.tasks)
			if (wanted.has(task.id) && !task.deleted) found.set(task.id, this.dto(task));
		return found;
	}
}
