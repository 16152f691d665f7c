import { VisionStoryError } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/errors';
import {
	InstantCallBook,
	intentKey,
	keptJson,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/instantCalls';

/** The core's record of instant charged calls: one send per intent, in bounded memory. */

const lost = () =>
	new VisionStoryError({
		category: 'network',
		message: 'The connection to VisionStory failed (ECONNRESET)',
		mayHaveReachedService: true,
		mayHaveSucceeded: true,
	});
const refused = () => new VisionStoryError({ category: 'api', status: 500, message: 'Oops' });

function counter<T>(answers: Array<T | Error>) {
	let calls = 0;
	return {
		get calls() {
			return calls;
		},
		call: async (): Promise<T> => {
			const answer = answers[Math.min(calls++, answers.length - 1)];
			if (answer instanceof Error) throw answer;
			return answer;
		},
	};
}

const once = <T>(book: InstantCallBook, key: string, call: () => Promise<T>) =>
	book.once(key, 'generateImage', 'an image generation (prompt "x")', call, keptJson);

test('an answered call is not sent again: each later try gets its own copy of the answer', async () => {
	const book = new InstantCallBook();
	const sent = counter([{ url: 'https://x/1.png', tags: ['a'] }]);
	const first = await once(book, 'k', sent.call);
	const second = await once(book, 'k', sent.call);
	expect(sent.calls).toBe(1);
	expect(second).toEqual(first);
	second.tags.push('b');
	expect((await once(book, 'k', sent.call)).tags).toEqual(['a']);
});

test('a call that may have been charged without an answer is refused, saying what, why and how to check', async () => {
	const book = new InstantCallBook();
	const sent = counter<unknown>([lost(), { url: 'never' }]);
	await expect(once(book, 'k', sent.call)).rejects.toThrow(/ECONNRESET/);
	const refusal = await once(book, 'k', sent.call).catch((e: VisionStoryError) => e);
	expect(sent.calls).toBe(1);
	expect(refusal).toBeInstanceOf(VisionStoryError);
	expect((refusal as VisionStoryError).category).toBe('validation');
	expect((refusal as VisionStoryError).message).toBe(
		'Not sent again: an earlier try of this same work sent an image generation (prompt "x") and its answer was lost after it reached VisionStory, so it may have been charged. Sending it again could charge it twice',
	);
	expect((refusal as VisionStoryError).hint).toMatch(
		/Check your credits.*new execution.*new message/,
	);
	// An answer read as success but unreadable was charged too.
	const unreadable = counter<unknown>([
		new VisionStoryError({ category: 'response', message: 'missing url' }),
	]);
	await expect(once(book, 'u', unreadable.call)).rejects.toThrow('missing url');
	await expect(once(book, 'u', unreadable.call)).rejects.toThrow(/answered it with success/);
	expect(unreadable.calls).toBe(1);
});

test('a call the service refused was not charged: it is sent again', async () => {
	const book = new InstantCallBook();
	const sent = counter<unknown>([refused(), { url: 'ok' }]);
	await expect(once(book, 'k', sent.call)).rejects.toThrow('Oops');
	expect(await once(book, 'k', sent.call)).toEqual({ url: 'ok' });
	expect(sent.calls).toBe(2);
	expect(book.size.entries).toBe(1);
});

test('a second try while the first is under way waits for it and gets its answer', async () => {
	const book = new InstantCallBook();
	let answer!: (value: { url: string }) => void;
	let calls = 0;
	const call = () => {
		calls++;
		return new Promise<{ url: string }>((resolve) => (answer = resolve));
	};
	const first = once(book, 'k', call);
	const second = once(book, 'k', call);
	await Promise.resolve();
	answer({ url: 'one' });
	expect(await first).toEqual({ url: 'one' });
	expect(await second).toEqual({ url: 'one' });
	expect(calls).toBe(1);
});

test('memory is bounded: the least recently used intents are forgotten, answers dropped past the bytes allowed', async () => {
	const book = new InstantCallBook(3, Number.POSITIVE_INFINITY, 100);
	for (const key of ['a', 'b', 'c', 'd']) await once(book, key, async () => ({ key }));
	expect(book.size.entries).toBe(3);
	// `a` was forgotten: a try of it is sent again.
	const again = counter([{ key: 'a2' }]);
	expect(await once(book, 'a', again.call)).toEqual({ key: 'a2' });
	expect(again.calls).toBe(1);
	// An answer past the bytes allowed drops the oldest answers; their intents stay, refused as charged.
	await once(book, 'big', async () => ({ text: 'x'.repeat(90) }));
	expect(book.size.keptBytes).toBeLessThanOrEqual(100);
	await expect(once(book, 'd', async () => ({ key: 'd2' }))).rejects.toThrow(
		/answered it, so it was charged, but the answer is no longer held/,
	);
});

test('an intent untouched for the idle time is forgotten', async () => {
	jest.useFakeTimers({ now: 1_000_000 });
	try {
		const book = new InstantCallBook(100, 60_000);
		await once(book, 'k', async () => ({ n: 1 }));
		jest.setSystemTime(1_000_000 + 60_001);
		expect(await once(book, 'k', async () => ({ n: 2 }))).toEqual({ n: 2 });
	} finally {
		jest.useRealTimers();
	}
});

test('an intent is its scope, endpoint, request and files: any of them changed is another intent', () => {
	const key = intentKey('exec:node:0:1', 'generateImage', { prompt: 'x' });
	expect(intentKey('exec:node:0:1', 'generateImage', { prompt: 'x' })).toBe(key);
	expect(intentKey('exec:node:0:2', 'generateImage', { prompt: 'x' })).not.toBe(key);
	expect(intentKey('exec:node:0:1', 'understandMedia', { prompt: 'x' })).not.toBe(key);
	expect(intentKey('exec:node:0:1', 'generateImage', { prompt: 'y' })).not.toBe(key);
	expect(
		intentKey('exec:node:0:1', 'generateImage', { prompt: 'x' }, { p: { identity: 'file-1' } }),
	).not.toBe(
		intentKey('exec:node:0:1', 'generateImage', { prompt: 'x' }, { p: { identity: 'file-2' } }),
	);
});
