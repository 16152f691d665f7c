import { VisionStoryError } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/errors';
import {
	Attempt,
	IntentBook,
	RULES,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/intents';

/** The rule table of issue 38, evidence by evidence: what an answer proves, and what it does not. */
const POLL = 10_000;
const gateway = new VisionStoryError({ category: 'api', status: 502, message: 'Bad Gateway' });

/** An attempt answered with `vid_1` at 0 and read rendering at 10 s. */
function seenRendering(): Attempt {
	const attempt = new Attempt('order-1');
	attempt.answered('vid_1', 0);
	attempt.seen('creating', 10_000);
	return attempt;
}

test('a 404 alone, or several within moments, or read errors for minutes never prove a video gone or failed', () => {
	const attempt = seenRendering();
	attempt.absent('notFound', 20_000);
	expect(RULES.neverComes(attempt, POLL)).toBeUndefined();
	for (let at = 30_000; at < 300_000; at += POLL) attempt.readFailed(gateway, at);
	expect(RULES.neverComes(attempt, POLL)).toBeUndefined();
	expect(RULES.settled(attempt, POLL)).toBeUndefined();
	// Absences for minutes without the key answered again: a wait never finds a video gone by itself.
	for (let at = 300_000; at < 600_000; at += POLL) attempt.absent('notFound', at);
	expect(RULES.gone(attempt, POLL)).toBe(false);
});

test('gone: seen, the key answered again with it, then 3 reads over 2 poll intervals do not find it', () => {
	const attempt = seenRendering();
	attempt.absent('notFound', 20_000);
	attempt.absent('notFound', 30_000);
	attempt.answered('vid_1', 40_000);
	expect(attempt.answeredAgainAt).toBe(40_000);
	// Absences before the key was answered again do not count.
	attempt.absent('missing', 40_000);
	attempt.absent('missing', 50_000);
	expect(RULES.gone(attempt, POLL)).toBe(false);
	attempt.absent('missing', 55_000);
	// Three reads, but within less than two intervals.
	expect(RULES.gone(attempt, POLL)).toBe(false);
	attempt.absent('missing', 60_000);
	expect(RULES.neverComes(attempt, POLL)).toBe('gone');
	// A read showing it again settles it: alive.
	attempt.seen('creating', 70_000);
	expect(RULES.gone(attempt, POLL)).toBe(false);
});

test('failed and created count only when the last read showed them; never seen is not visible yet', () => {
	const attempt = new Attempt('order-2');
	attempt.answered('vid_2', 0);
	expect(RULES.notVisibleYet(attempt)).toBe(true);
	attempt.absent('missing', 10_000);
	expect(RULES.notVisibleYet(attempt)).toBe(true);
	expect(RULES.neverComes(attempt, POLL)).toBeUndefined();
	attempt.seen('failed', 20_000);
	expect(RULES.notVisibleYet(attempt)).toBe(false);
	expect(RULES.settled(attempt, POLL)).toBe('failed');
	attempt.readFailed(gateway, 30_000);
	expect(RULES.failed(attempt)).toBe(false);
	attempt.seen('created', 40_000);
	expect(RULES.settled(attempt, POLL)).toBe('created');
	attempt.absent('notFound', 50_000);
	expect(RULES.settled(attempt, POLL)).toBeUndefined();
});

test('a key answered with another video than before starts its evidence afresh', () => {
	const attempt = seenRendering();
	expect(attempt.answered('vid_1', 15_000)).toBe(true);
	expect(attempt.answered('vid_9', 20_000)).toBe(false);
	expect(attempt.firstSeen).toBeUndefined();
	expect(RULES.notVisibleYet(attempt)).toBe(true);
});

test('the book keeps the intents it was last asked for, up to its bound, each with its attempts and their keys', () => {
	const book = new IntentBook(2);
	const keyOf = (key: string) => (n: number) => (n === 0 ? key : `${key}.a${n}`);
	const first = book.intent('a', keyOf('a'));
	first.attempt(1).answered('vid_a1', 0);
	expect(first.attempt(0).key).toBe('a');
	expect(first.attempt(1).key).toBe('a.a1');
	book.intent('b', keyOf('b'));
	expect(book.intent('a', keyOf('a'))).toBe(first);
	book.intent('c', keyOf('c'));
	// 'b' was the least recently asked for: forgotten; 'a' is kept with what it saw.
	expect(book.intent('a', keyOf('a')).attempt(1).videoId).toBe('vid_a1');
	expect(book.intent('b', keyOf('b')).attempt(0).videoId).toBeUndefined();
});
