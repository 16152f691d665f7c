/**
 * Paid videos a node is waiting on, kept in the node's context from the moment they are submitted
 * until they are delivered: a deploy or a stop that closes the node while they render writes each id
 * to Node-RED's log with how to fetch it, and the node that starts next with the same id picks them up
 * again (a deploy keeps node context; a restart too with a persistent context store).
 *
 * Node-RED deletes a node's context when the node closes unless a context store is configured
 * (contextStorage in settings.js; its default has none), so the records are kept in this process's
 * memory too, by node id: a deploy finds them there, a restart only in a persistent store.
 *
 * A record is one video of one message's handling. Messages may share a `_msgid` (a Function node
 * sending rows with node.send in a loop gives each row the incoming one), so a handling has its own
 * key, and finishing one message removes only the videos it was waiting on.
 */
import type { NodeContext } from 'node-red';
import { randomUUID } from 'node:crypto';

import type { TaskKind } from './api';
import type { Texts } from './texts';

/** One paid video a message is waiting on. Saved as 1.0.0 saved a message's videos, one id a record. */
export interface Render {
	kind: TaskKind;
	videoIds: [string];
	/** The message that paid for it: the result is delivered as a new message naming it. */
	msgid: string;
	/** When it was submitted (ms since the epoch). */
	submittedAt: number;
	/** Its place among the videos its message submitted. */
	index: number;
	/** The handling of the message that waits on it (1.0.0's records: the `_msgid`). */
	handling: string;
}

const KEY = 'visionstory-in-flight';

/** The records of every node of this process, by node id: what outlives a deploy whatever the settings. */
const kept = new Map<string, Render[]>();

/** A key for one message's handling, unique across restarts. */
export function newHandling(msgid: string | undefined): string {
	return `${msgid ?? ''}#${randomUUID()}`;
}

export class InFlight {
	private readonly renders = new Map<string, Render>();

	constructor(
		private readonly nodeId: string,
		private readonly context: NodeContext,
		private readonly store: string | undefined,
	) {}

	/** What an earlier node with this id left rendering, a record per video (1.0.0's per message, split). */
	async load(): Promise<Render[]> {
		const value = await new Promise<unknown>((resolve) =>
			// A store that cannot be read holds nothing to resume: the node still starts.
			this.context.get(KEY, this.store, (error, v) => resolve(error ? undefined : v)),
		);
		const found = Array.isArray(value) ? value : kept.get(this.nodeId);
		const list = (found ?? []) as Array<Partial<Render>>;
		for (const saved of list) {
			if (!saved || !Array.isArray(saved.videoIds)) continue;
			if (saved.kind !== 'talkingVideo' && saved.kind !== 'aiVideo') continue;
			const msgid = String(saved.msgid ?? '');
			saved.videoIds.forEach((videoId, at) =>
				this.put({
					kind: saved.kind!,
					videoIds: [String(videoId)],
					msgid,
					submittedAt: Number(saved.submittedAt) || Date.now(),
					index: saved.videoIds!.length > 1 ? at : (saved.index ?? 0),
					handling: saved.handling ?? msgid,
				}),
			);
		}
		return [...this.renders.values()];
	}

	/** Videos one message's handling has just submitted and waits on. */
	add(handling: string, msgid: string, kind: TaskKind, videoIds: string[]): void {
		let index = [...this.renders.values()].filter((r) => r.handling === handling).length;
		for (const videoId of videoIds)
			this.put({
				kind,
				videoIds: [videoId],
				msgid,
				submittedAt: Date.now(),
				index: index++,
				handling,
			});
		this.save();
	}

	/** A message is answered (delivered, or failed and the flow told): nothing of it is left to pick up. */
	finished(handling: string): void {
		let removed = false;
		for (const [key, render] of this.renders)
			if (render.handling === handling) removed = this.renders.delete(key) || removed;
		if (removed) this.save();
	}

	/** One picked-up video is delivered (or failed, and the flow told). */
	delivered(render: Render): void {
		if (this.renders.delete(keyOf(render))) this.save();
	}

	get size(): number {
		return this.renders.size;
	}

	/** One log line per video still rendering: its id, and how to fetch it. */
	closingLines(texts: Texts, resumes: boolean): string[] {
		const seen = new Set<string>();
		return [...this.renders.values()].flatMap((render) => {
			const [id] = render.videoIds;
			if (seen.has(id)) return [];
			seen.add(id);
			return [
				texts('log.closed', {
					kind: texts(`kind.${render.kind}`),
					id,
					msgid: render.msgid,
					resumes: resumes ? texts('log.resumes') : '',
					node: texts(`node.${render.kind}`),
				}),
			];
		});
	}

	private put(render: Render): void {
		this.renders.set(keyOf(render), render);
	}

	private save(): void {
		const value = [...this.renders.values()];
		if (value.length) kept.set(this.nodeId, value);
		else kept.delete(this.nodeId);
		this.context.set(KEY, value.length ? value : undefined, this.store, () => undefined);
	}
}

function keyOf(render: Render): string {
	return `${render.handling}\n${render.videoIds[0]}`;
}
