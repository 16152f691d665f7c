/**
 * Paid videos a node is waiting on, kept in the node's context from the moment they are submitted
 * until they are delivered: a deploy or a stop that closes the node while they render writes each id
 * to Node-RED's log with how to fetch it, and the node that starts next with the same id picks them up
 * again (a deploy keeps node context; a restart too with a persistent context store).
 */
import type { TaskKind } from './api';
import type { ContextStore } from './red';

/** The videos one message started and is waiting on, in its batch order. */
export interface Render {
	kind: TaskKind;
	videoIds: string[];
	/** The message that paid for them: the result is delivered as a new message naming it. */
	msgid: string;
	/** When they were submitted (ms since the epoch). */
	submittedAt: number;
}

const KEY = 'visionstory-in-flight';

const NOUN: Record<TaskKind, { node: string; one: string }> = {
	talkingVideo: { node: 'talking video', one: 'talking video' },
	aiVideo: { node: 'ai video', one: 'AI video' },
};

export class InFlight {
	private readonly renders = new Map<string, Render>();

	constructor(
		private readonly context: ContextStore,
		private readonly store: string | undefined,
	) {}

	/** What an earlier node with this id left rendering. */
	async load(): Promise<Render[]> {
		const value = await new Promise<unknown>((resolve) =>
			// A store that cannot be read holds nothing to resume: the node still starts.
			this.context.get(KEY, this.store, (error, v) => resolve(error ? undefined : v)),
		);
		const list = Array.isArray(value) ? (value as Render[]) : [];
		for (const render of list)
			if (render && Array.isArray(render.videoIds) && render.kind in NOUN)
				this.renders.set(render.msgid, render);
		return [...this.renders.values()];
	}

	add(msgid: string, kind: TaskKind, videoIds: string[]): void {
		const known = this.renders.get(msgid);
		this.renders.set(msgid, {
			kind,
			msgid,
			videoIds: [...(known?.videoIds ?? []), ...videoIds],
			submittedAt: known?.submittedAt ?? Date.now(),
		});
		this.save();
	}

	/** Delivered (or failed, which the flow was told of): nothing left to pick up. */
	delete(msgid: string): void {
		if (this.renders.delete(msgid)) this.save();
	}

	/** Removes one video of a resumed message once it is delivered. */
	delivered(msgid: string, videoId: string): void {
		const render = this.renders.get(msgid);
		if (!render) return;
		render.videoIds = render.videoIds.filter((id) => id !== videoId);
		if (render.videoIds.length === 0) this.renders.delete(msgid);
		this.save();
	}

	get size(): number {
		return this.renders.size;
	}

	/** One log line per video still rendering: its id, and how to fetch it. */
	closingLines(resumes: boolean): string[] {
		return [...this.renders.values()].flatMap((render) =>
			render.videoIds.map(
				(id) =>
					`Closed while ${NOUN[render.kind].one} ${id} renders (paid; message ${render.msgid}). ${
						resumes
							? 'This node picks it up when it starts again and sends the result on output 1. '
							: ''
					}To fetch it yourself: a ${NOUN[render.kind].node} node, operation Get or Check Status, with msg.videoId = "${id}".`,
			),
		);
	}

	private save(): void {
		const value = [...this.renders.values()];
		this.context.set(KEY, value.length ? value : undefined, this.store, () => undefined);
	}
}
