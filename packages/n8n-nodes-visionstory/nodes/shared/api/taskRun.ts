import { abortedError } from './clock';
import { Slots } from './concurrency';
import { AI_VIDEO_BATCH_MAX } from './contract';
import type { VisionStoryError } from './errors';
import type { SpendingClient } from './spendingClient';
import type { Due } from './taskBatch';
import { Batch } from './taskBatch';
import { createVideo } from './taskCreate';
import { asError, isRateLimit, refusedError } from './taskErrors';
import { DEFAULT_CONCURRENCY, readTasks, TalkingVideoList } from './taskReads';
import type { Outcome, RunOptions, TaskJob, TaskKind, VideoResult } from './tasks';

/**
 * Submitting many video tasks and waiting on them together, one run per kind, each read top to
 * bottom: submit every item, then until every item has ended, give up on items out of time, sleep
 * until the next read is due, read the tasks due, take in what the read says and send what was held
 * for it. Every create and every read is sent from here; `Batch` (`taskBatch.ts`) keeps what the run
 * knows and takes in the answers.
 */

/**
 * Submits every item first, then waits on all of them together, each read when it should be done:
 * AI videos through the batch status call (20 ids a request), talking videos from the list when the
 * service's answer carries full tasks, else one read each. Every request waits for a slot in the
 * credential's budget. An AI-video submission refused by the per-key concurrency cap is queued and
 * sent again once one of our tasks frees a slot, or refused at once (`atLimit`); a submission refused
 * by a rate limit is sent again, slower; one the spend cap holds until an earlier video's price is
 * known is sent after the next read. Each item keeps its own time limit.
 */
export async function runTasks(
	client: SpendingClient,
	kind: TaskKind,
	jobs: TaskJob[],
	options: RunOptions,
): Promise<Array<Outcome<VideoResult>>> {
	return kind === 'talkingVideo'
		? await runTalkingVideos(client, jobs, options)
		: await runAiVideos(client, jobs, options);
}

/**
 * Talking videos: submitted side by side (`concurrency` at once), a rate-limited one sent again at
 * once (the budget paces it), read from the list when it proved to carry full tasks, else one by one.
 */
export async function runTalkingVideos(
	client: SpendingClient,
	jobs: TaskJob[],
	options: RunOptions,
): Promise<Array<Outcome<VideoResult>>> {
	const { signal, budget } = options;
	const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
	const batch = new Batch('talkingVideo', jobs, options);
	const list = new TalkingVideoList();
	await submitTalkingVideos(client, batch, concurrency);
	for (;;) {
		const now = Date.now();
		batch.expire(now);
		if (batch.done()) break;
		if (signal?.aborted) throw abortedError();
		// Talking videos sent again after a rate limit go at once: the budget paces them.
		if (batch.waiting.length > 0) {
			await submitTalkingVideos(client, batch, concurrency);
			continue;
		}
		const next = batch.next(now);
		if (next && 'sleepMs' in next) await client.sleep(next.sleepMs, signal);
		if (!next || !('due' in next)) continue;
		const readAt = batch.roundStarts();
		const known = batch.known();
		const ids = next.due.map(([, entry]) => entry.id);
		const read = await readTasks(
			client,
			'talkingVideo',
			ids,
			{ concurrency, signal, budget, list },
			known,
		);
		batch.takeReads(next.due, read, readAt);
		report(batch);
		if (batch.waiting.length > 0) await submitTalkingVideos(client, batch, concurrency);
	}
	report(batch, true);
	return batch.results();
}

async function submitTalkingVideos(
	client: SpendingClient,
	batch: Batch,
	concurrency: number,
): Promise<void> {
	const slots = new Slots(concurrency);
	await Promise.all(
		batch.waiting.splice(0, batch.waiting.length).map(async (index) => {
			await slots.take();
			try {
				const failure = await submit(client, batch, index);
				if (!failure) return;
				if (!batch.hold(index, failure)) batch.fail(index, failure);
				else if (isRateLimit(failure)) batch.waiting.push(index);
			} finally {
				slots.give();
			}
		}),
	);
}

/**
 * AI videos: submitted one by one, the first refusal by the per-key concurrency cap queueing the rest
 * until one of ours frees a slot (or refusing them, `atLimit`), read 20 ids a call, each call filled
 * with tasks not due yet.
 */
export async function runAiVideos(
	client: SpendingClient,
	jobs: TaskJob[],
	options: RunOptions,
): Promise<Array<Outcome<VideoResult>>> {
	const { signal, budget } = options;
	const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
	const batch = new Batch('aiVideo', jobs, options);
	await submitAiVideos(client, batch);
	for (;;) {
		const now = Date.now();
		batch.expire(now);
		if (batch.done()) break;
		if (signal?.aborted) throw abortedError();
		const next = batch.next(now);
		if (next && 'sleepMs' in next) await client.sleep(next.sleepMs, signal);
		if (!next || !('due' in next)) continue;
		const readAt = batch.roundStarts();
		const known = batch.known();
		const read = await readTasks(
			client,
			'aiVideo',
			idsFillingCalls(next.due, known),
			{ concurrency, signal, budget },
			known,
		);
		batch.takeReads(next.due, read, readAt);
		report(batch);
		if (batch.waiting.length > 0) await submitAiVideos(client, batch);
	}
	report(batch, true);
	return batch.results();
}

/** AI videos one by one: the first concurrency refusal says the remaining ones would be refused too. */
async function submitAiVideos(client: SpendingClient, batch: Batch): Promise<void> {
	const { atLimit } = batch.options;
	while (batch.waiting.length > 0) {
		// Our own tasks already fill the known cap: sending now would only be refused again.
		const full =
			batch.slotLimit?.limit !== undefined && batch.pending.size >= batch.slotLimit.limit;
		if (atLimit === 'queue' && full) return;
		const index = batch.waiting[0];
		const failure = await submit(client, batch, index);
		if (failure?.isConcurrencyLimit) {
			batch.slotLimit = failure.concurrency;
			if (atLimit === 'queue') return;
			for (const refused of batch.waiting.splice(0, batch.waiting.length))
				batch.fail(refused, refusedError(batch.slotLimit));
			return;
		}
		if (failure && batch.hold(index, failure)) {
			// Slowed by the budget (a rate limit), or waiting on a price: the rest follow it.
			if (isRateLimit(failure)) return;
			batch.waiting.shift();
			continue;
		}
		if (failure) batch.fail(index, failure);
		batch.waiting.shift();
	}
}

/** The due tasks' ids; a batch call holds 20 ids whoever they are, so the rest of a call goes to tasks not due yet. */
function idsFillingCalls(due: Due, known: Set<string>): string[] {
	const ids = due.map(([, entry]) => entry.id);
	const room = Math.ceil(ids.length / AI_VIDEO_BATCH_MAX) * AI_VIDEO_BATCH_MAX - ids.length;
	const asked = new Set(ids);
	ids.push(...[...known].filter((id) => !asked.has(id)).slice(0, room));
	return ids;
}

/** Sends one item's create (with its read-back and new attempts); the failure, if any, to act on. */
async function submit(
	client: SpendingClient,
	batch: Batch,
	index: number,
): Promise<VisionStoryError | undefined> {
	const { signal, budget, waitForCompletion } = batch.options;
	batch.submitting++;
	try {
		// Without waiting, the answer is all an item gets: read it back for its state and price.
		const created = await createVideo(client, batch.kind, batch.jobs[index], {
			signal,
			budget,
			readBack: !waitForCompletion,
		});
		batch.submitted(index, created);
		return undefined;
	} catch (error) {
		return batch.refused(index, asError(error));
	} finally {
		batch.submitting--;
		report(batch);
	}
}

/** The batch's progress line to the run's log, when one is due (`force`: now). */
function report(batch: Batch, force = false): void {
	const line = batch.progress(force);
	if (line !== undefined) batch.options.log?.to.info(line);
}
