/**
 * The checks run on every supported Node-RED line, against one Node-RED started once (and restarted
 * once, for the watch node): the package installed from its packed tarball, flows deployed through
 * the admin API, results and the emulator's ledger checked.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { ensureNodeRed } from '../../../scripts/node-red/install';
import { NodeRedInstance } from '../../../scripts/node-red/instance';
import { installIntoUserDir, packNodeRedPackage } from '../../../scripts/node-red/package';
import type { NodeRedLine } from '../../../scripts/node-red/versions';
import { REPO_ROOT } from '../../../scripts/paths';
import { startEmulator, type Emulator } from '../../emulator';
import { firstPublicAvatarId } from '../../support/avatars';
import { emulatorConfig, exampleFiles, preparedExamples } from '../../../scripts/node-red/examples';
import { parseMp3 } from '../../../packages/n8n-nodes-visionstory/nodes/shared/api/speech/mp3';
import { parseSrt, parseVtt } from '../../support/subtitles';
import { englishScript } from '../../unit/scripts';
import {
	FLOOR,
	floorConfig,
	OUTCOMES,
	outcomesTab,
	POOR,
	poorConfig,
	speechAndCaptionsTab,
	speechConfig,
	testTab,
	WATCH_LISTS,
	watchListsTab,
} from './flows';

const TYPES = [
	'visionstory-config',
	'visionstory-talking-video',
	'visionstory-ai-video',
	'visionstory-image',
	'visionstory-text-to-speech',
	'visionstory-align',
	'visionstory-avatar',
	'visionstory-voice',
	'visionstory-understand',
	'visionstory-asset',
	'visionstory-account',
	'visionstory-watch',
];

async function until<T>(
	what: string,
	read: () => Promise<T>,
	done: (value: T) => boolean,
	timeoutMs = 90_000,
): Promise<T> {
	const started = Date.now();
	for (;;) {
		const value = await read();
		if (done(value)) return value;
		if (Date.now() - started > timeoutMs)
			throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 2000)}`);
		await new Promise((r) => setTimeout(r, 500));
	}
}

export function describeLine(line: NodeRedLine): void {
	describe(`Node-RED ${line.nodeRed}`, () => {
		let emulator: Emulator;
		let red: NodeRedInstance;
		let avatarId: string;
		let voiceId: string;
		const examples = preparedExamples({ pollIntervalSeconds: 5 });
		const timings: Record<string, number> = {};
		let deployed: unknown[] = [];

		beforeAll(async () => {
			const started = Date.now();
			emulator = await startEmulator({ renderMs: 1000 });
			emulator.addAccount(FLOOR.apiKey, 15);
			emulator.addAccount(POOR.apiKey, 1);
			avatarId = await firstPublicAvatarId(emulator);
			voiceId = 'Alice';
			const install = await ensureNodeRed(line, () => undefined);
			const work = join(REPO_ROOT, '.e2e', `node-red-${line.id}`);
			rmSync(work, { recursive: true, force: true });
			mkdirSync(work, { recursive: true });
			const pkg = await packNodeRedPackage(join(work, 'pack'));
			const userDir = join(work, 'user');
			await installIntoUserDir(pkg, userDir, install.nodeBin);
			timings.install = Date.now() - started;
			red = await NodeRedInstance.create({
				install,
				userDir,
				contextStore: 'localfilesystem',
				nodeOptions: '--enable-source-maps',
			});
			timings.start = await red.start();
			deployed = [
				...testTab({ avatarId, voiceId }),
				...speechAndCaptionsTab(),
				...outcomesTab(),
				...examples.flows,
				emulatorConfig(emulator.baseUrl, emulator.apiKey),
				floorConfig(emulator.baseUrl),
				speechConfig(emulator.baseUrl, emulator.apiKey),
				poorConfig(emulator.baseUrl),
			];
			await red.deploy(deployed);
		}, 300_000);

		afterAll(async () => {
			await red?.stop();
			await emulator?.stop();
			console.log(`Node-RED ${line.nodeRed}: ${JSON.stringify(timings)}`);
		});

		const post = async (path: string, body: unknown) => {
			const response = await red.request('POST', path, body);
			return { status: response.status, body: (await response.json()) as Record<string, any> };
		};
		const talking = (body: unknown) => post('/vs/talking', body);
		const recorded = <T = Record<string, any>>(key: string) =>
			red.json<T[]>('GET', `/vs/global/${key}`);

		it('loads every node of the package from its tarball, and offers its examples', async () => {
			const sets = (await red.nodeSets()).filter(
				(s) => s.module === '@visionstory/node-red-visionstory',
			);
			expect(sets.flatMap((s) => s.types).sort()).toEqual([...TYPES].sort());
			for (const set of sets)
				expect({ set: set.id, enabled: set.enabled, err: set.err }).toEqual({
					set: set.id,
					enabled: true,
					err: undefined,
				});
			const editor = await (
				await red.request('GET', '/nodes', undefined, { accept: 'text/html' })
			).text();
			for (const type of TYPES)
				expect(editor).toMatch(new RegExp(`RED\\.nodes\\.registerType\\(\\s*["']${type}["']`));
			const listed = await red.json<unknown[]>(
				'GET',
				'/library/examples/flows/@visionstory/node-red-visionstory',
			);
			expect(JSON.stringify(listed)).toContain(exampleFiles()[0].replace(/\.json$/, ''));
		});

		it('renders a batch of talking videos, waited on together, files back in order', async () => {
			const before = emulator.ledger().length;
			const started = Date.now();
			const { status, body } = await talking({
				avatarId,
				voiceId,
				texts: ['One.', 'Two.', 'Three.'],
			});
			timings.batch = Date.now() - started;
			expect(status).toBe(200);
			expect(body.files).toHaveLength(3);
			for (const size of body.files) expect(size).toBeGreaterThan(1000);
			expect(body.tasks.map((t: { status: string }) => t.status)).toEqual([
				'created',
				'created',
				'created',
			]);
			const charged = emulator
				.ledger()
				.slice(before)
				.filter((e) => e.kind === 'charge');
			expect(charged.map((e) => e.refId).sort()).toEqual(
				body.tasks.map((t: { video_id: string }) => t.video_id).sort(),
			);
		});

		it('a fixed output file: each paid video in a file of its own (a batch: video-1.mp4, …; single messages: numbered on)', async () => {
			const dir = join(REPO_ROOT, '.e2e', `node-red-${line.id}`, 'files');
			rmSync(dir, { recursive: true, force: true });
			const { status, body } = await talking({
				avatarId,
				voiceId,
				texts: ['One.', 'Two.', 'Three.'],
				outputFile: join(dir, 'video.mp4'),
			});
			expect(status).toBe(200);
			expect(body.files).toEqual([1, 2, 3].map((n) => join(dir, `video-${n}.mp4`)));
			expect(readdirSync(dir).sort()).toEqual(['video-1.mp4', 'video-2.mp4', 'video-3.mp4']);
			for (const path of body.files)
				expect(existsSync(path) && statSync(path).size).toBeGreaterThan(1000);
			// Issue 38 defect 5: single messages to the same path never overwrite a paid video either.
			const single = async (text: string) =>
				(await talking({ avatarId, voiceId, texts: text, outputFile: join(dir, 'video.mp4') })).body
					.files;
			expect(await single('Four.')).toEqual([join(dir, 'video.mp4')]);
			expect(await single('Five.')).toEqual([join(dir, 'video-4.mp4')]);
			expect(readdirSync(dir)).toHaveLength(5);
		});

		it('speaks 100,000 characters as one MP3, priced whole and charged per part', async () => {
			const text = englishScript(100_000, 5).slice(0, 100_000).replace(/\s$/, '.');
			const before = emulator.ledger().length;
			const started = Date.now();
			const { status, body } = await post('/vs/long-speech', { text });
			timings.longSpeech = Date.now() - started;
			expect({ status, error: body.error?.message }).toEqual({ status: 200, error: undefined });
			const charges = emulator
				.ledger()
				.slice(before)
				.filter((e) => e.kind === 'charge' && e.operation === 'tts');
			expect(body.details.parts).toBeGreaterThanOrEqual(34);
			expect(charges).toHaveLength(body.details.parts);
			expect(body.details.cost_credit).toBe(charges.reduce((sum, e) => sum + e.credits, 0));
			expect(body.details.characters).toBeGreaterThan(99_000);
			const mp3 = parseMp3(Buffer.from(body.mp3, 'base64'));
			expect(mp3.junk).toEqual([]);
			expect(mp3.vbrHeaders.map((h) => h.frames)).toEqual([mp3.frames.length]);
			expect(mp3.durationSec).toBeCloseTo(body.details.duration_sec, 2);
		});

		it('Align answers SRT and WebVTT captions built from the word timings', async () => {
			const text = englishScript(1_500, 11);
			const { status, body } = await post('/vs/captions', {
				audioUrl: `${emulator.mediaBaseUrl}/media/sample.mp3`,
				text,
			});
			expect(status).toBe(200);
			const words = body.words.map((w: { text: string }) => w.text);
			for (const cues of [parseSrt(body.captions.srt), parseVtt(body.captions.vtt)]) {
				expect(cues).toHaveLength(body.captions.cues);
				expect(cues.flatMap((c) => c.text.split(/\s+/))).toEqual(words);
				expect(cues.every((c) => c.text.split('\n').every((l) => l.length <= 32))).toBe(true);
			}
		});

		it('a node saved by 1.0.0 with its failure output wired: a failing render leaves there (never also to Catch), with the message, hint and a stack naming src/', async () => {
			const { status, body } = await talking({ avatarId, voiceId, texts: 'This one will [fail].' });
			expect(status).toBe(500);
			expect(body.error.source.type).toBe('visionstory-talking-video');
			expect(body.error.message).toContain(body.error.cause.hint);
			// The bundle's source map, with Node's --enable-source-maps, names the source file.
			expect(body.error.stack).toMatch(/node-red-visionstory\/src\/runtime\.ts:\d+/);
			const [videoId] = body.error.cause.videoIds;
			const entries = emulator
				.ledger()
				.filter((e) => e.refId === videoId)
				.map((e) => e.kind);
			expect(entries).toEqual(['charge', 'refund']);
			expect(await recorded('caught')).toEqual([]);
		});

		it('a node saved by 1.0.0 with its failure output wired splits a partly failed batch: good items by output 1, failed ones by output 2, each naming its item; files with filename and mimetype', async () => {
			const texts = ['One.', 'This one will [fail].', 'Three.'];
			const { status, body } = await talking({ avatarId, voiceId, texts });
			expect(status).toBe(200);
			expect(body.files).toHaveLength(2);
			expect(body.items).toEqual([
				{ index: 0, input: 'One.' },
				{ index: 2, input: 'Three.' },
			]);
			expect(body.mimetype).toEqual(['video/mp4', 'video/mp4']);
			expect(body.filename).toEqual(
				body.tasks.map((t: { video_id: string }) => expect.stringContaining(t.video_id)),
			);
			const failed = await until(
				'the failed item',
				() => recorded('batchFailed'),
				(f) => f.length > 0,
			);
			expect(failed).toHaveLength(1);
			expect(failed[0].items).toEqual([{ index: 1, input: texts[1] }]);
			expect(failed[0].errors).toEqual([
				expect.objectContaining({ index: 1, input: texts[1], videoIds: [expect.any(String)] }),
			]);
			expect(failed[0].error.message).toContain('1 of 3 failed');
			expect(await recorded('caught')).toEqual([]);
		});

		describe('where a failure goes (issue 40 item 4)', () => {
			interface Outcome {
				tag: string;
				by: string;
				items?: Array<{ index: number; input: unknown }>;
				errors?: Array<{ index: number; videoIds?: string[] }>;
				error?: {
					message: string;
					source: { id: string };
					cause: { hint?: string; status?: number; videoIds?: string[] };
				};
			}
			let tags = 0;
			/** Sends texts to the node of `mode`; resolves with every outcome of it once `expected` have arrived. */
			async function outcome(
				mode: 'catch' | 'port' | 'poor',
				body: { texts: unknown; avatarId?: string; voiceId?: string },
				expected: number,
			): Promise<Record<'ok' | 'failed' | 'caught', Outcome[]>> {
				const tag = `${mode}-${++tags}`;
				const seen = (await recorded('statuses')).length;
				const { status } = await post(`/vs/outcome/${mode}`, { avatarId, voiceId, ...body, tag });
				expect(status).toBe(200);
				const read = async () => {
					const all = await Promise.all(
						[OUTCOMES.ok, OUTCOMES.failed, OUTCOMES.caught].map((key) => recorded<Outcome>(key)),
					);
					const [ok, failed, caught] = all.map((list) => list.filter((o) => o.tag === tag));
					return { ok, failed, caught };
				};
				await until(
					`${expected} outcomes of ${tag}`,
					read,
					(o) => o.ok.length + o.failed.length + o.caught.length >= expected,
				);
				// The node has said its last word on the message: one more read finds nothing new.
				await until(
					`${tag}'s node to finish`,
					() => recorded<{ id: string; text: string }>('statuses'),
					(s) =>
						s
							.slice(seen)
							.some((x) => x.id === `t-out-${mode}` && /^(done|failed|\d+\/\d+ done)/.test(x.text)),
				);
				return await read();
			}

			it('a failing render reaches a Catch node once, with the service message, hint and video id', async () => {
				const got = await outcome('catch', { texts: 'This one will [fail].' }, 1);
				expect({ ok: got.ok, failed: got.failed }).toEqual({ ok: [], failed: [] });
				expect(got.caught).toHaveLength(1);
				const { error } = got.caught[0];
				expect(error?.source.id).toBe('t-out-catch');
				expect(error?.message).toContain(error?.cause.hint);
				expect(error?.cause.videoIds).toEqual([expect.any(String)]);
			});

			it('a bad input reaches a Catch node once, naming the field, nothing charged', async () => {
				const ledger = emulator.ledger().length;
				const got = await outcome('catch', { texts: 'No voice.', voiceId: '' }, 1);
				expect(got.caught).toHaveLength(1);
				expect(got.caught[0].error?.message).toContain('"Voice" (voiceId) is required');
				expect(got.ok).toEqual([]);
				expect(emulator.ledger()).toHaveLength(ledger);
			});

			it("a service error reaches a Catch node once with the service's message and hint: a 404 (no such avatar), a 402 (too few credits)", async () => {
				const missing = await outcome('catch', { texts: 'Hello.', avatarId: 'avatar_nope' }, 1);
				expect(missing.caught).toHaveLength(1);
				expect(missing.caught[0].error?.cause.status).toBe(404);
				expect(missing.caught[0].error?.message).toContain(missing.caught[0].error?.cause.hint);
				const poor = await outcome('poor', { texts: 'Hello.' }, 1);
				expect(poor.caught).toHaveLength(1);
				expect(poor.caught[0].error?.source.id).toBe('t-out-poor');
				expect(poor.caught[0].error?.cause.status).toBe(402);
				expect(poor.caught[0].error?.cause.hint).toMatch(/top up/i);
				expect(poor.caught[0].error?.message).toContain(poor.caught[0].error?.cause.hint);
			});

			it('a partly failed batch: its finished videos by output 1, its failed item once to Catch, each naming its item', async () => {
				const texts = ['One.', 'This one will [fail].', 'Three.'];
				const got = await outcome('catch', { texts }, 2);
				expect(got.ok).toHaveLength(1);
				expect(got.ok[0].items).toEqual([
					{ index: 0, input: 'One.' },
					{ index: 2, input: 'Three.' },
				]);
				expect(got.failed).toEqual([]);
				expect(got.caught).toHaveLength(1);
				expect(got.caught[0].items).toEqual([{ index: 1, input: texts[1] }]);
				expect(got.caught[0].errors).toEqual([
					expect.objectContaining({ index: 1, videoIds: [expect.any(String)] }),
				]);
				expect(got.caught[0].error?.message).toContain('1 of 3 failed');
			});

			it('with the Failure output on: a failing render leaves by output 2 with msg.error, and no Catch node sees it', async () => {
				const got = await outcome('port', { texts: 'This one will [fail].' }, 1);
				expect({ ok: got.ok, caught: got.caught }).toEqual({ ok: [], caught: [] });
				expect(got.failed).toHaveLength(1);
				expect(got.failed[0].error?.source.id).toBe('t-out-port');
				expect(got.failed[0].error?.message).toContain(got.failed[0].error?.cause.hint);
				expect(got.failed[0].error?.cause.videoIds).toEqual([expect.any(String)]);
			});

			it('with the Failure output on: a partly failed batch leaves by output 1 and output 2 once each, no Catch', async () => {
				const texts = ['One.', 'This one will [fail].'];
				const got = await outcome('port', { texts }, 2);
				expect(got.ok).toHaveLength(1);
				expect(got.failed).toHaveLength(1);
				expect(got.failed[0].items).toEqual([{ index: 1, input: texts[1] }]);
				expect(got.caught).toEqual([]);
			});
		});

		it("the node's setting wins over msg (with a warning), the status shows this node's own cost, speech comes with filename and mimetype", async () => {
			const before = emulator.requests({ method: 'POST', path: '/api/v1/tts' }).length;
			const { status, body } = await post('/vs/speech', { text: 'Hello there.', voiceId: 'Echo' });
			expect(status).toBe(200);
			expect(body.size).toBeGreaterThan(100);
			expect(body.mimetype).toBe('audio/mpeg');
			expect(body.filename).toMatch(/\.mp3$/);
			const sent = emulator.requests({ method: 'POST', path: '/api/v1/tts' }).slice(before);
			expect(sent.map((r) => r.settings?.voice_id)).toEqual([voiceId, voiceId]);
			expect(red.logText()).toMatch(
				/msg\.voiceId is ignored: the node's "Voice" \(voiceId\) is set/,
			);
			const statuses = await until(
				'both speech nodes to finish',
				() => recorded<{ id: string; text: string }>('statuses'),
				(s) =>
					['t-speech-1', 't-speech-2'].every((id) =>
						s.some((x) => x.id === id && x.text.startsWith('done')),
					),
			);
			const last = (id: string) => statuses.filter((x) => x.id === id).at(-1)!.text;
			// Each spoke the same text: the second shows its own credits, not the message's running total.
			expect(last('t-speech-2')).toBe(last('t-speech-1'));
			expect(last('t-speech-1')).toMatch(/^done · \d+ credits$/);
		});

		it('refuses a bad input before anything is sent: nothing charged', async () => {
			const creates = emulator.requests({ method: 'POST', path: '/api/v1/video' }).length;
			const ledger = emulator.ledger().length;
			const { status, body } = await talking({
				avatarId,
				voiceId: '',
				texts: ['Fine.', 'Fine too.'],
			});
			expect(status).toBe(500);
			expect(body.error.message).toContain('"Voice" (voiceId) is required');
			expect(emulator.requests({ method: 'POST', path: '/api/v1/video' })).toHaveLength(creates);
			expect(emulator.ledger()).toHaveLength(ledger);
		});

		it('Keep at Least N Credits refuses the video that would take the balance below it, nothing charged', async () => {
			const floor = (text: string) => post('/vs/floor', { avatarId, voiceId, text });
			// 15 credits, a floor of 10: the first video (10 credits) fits, the second would go below.
			const first = await floor('Above the floor.');
			expect(first.status).toBe(200);
			expect(emulator.balance(FLOOR.apiKey)).toBe(5);
			// It does not wait: "submitted", not "done", while the video renders.
			const statuses = await recorded<{ id: string; text: string }>('statuses');
			expect(statuses.filter((x) => x.id === 't-floor').at(-1)!.text).toMatch(/^submitted 1\b/);
			const second = await floor('Below the floor.');
			expect(second.status).toBe(500);
			expect(second.body.error.source.id).toBe('t-floor');
			expect(second.body.error.message).toContain(
				'Creating a talking video was refused: Keep at Least 10 Credits would be passed: the account has 5 credits',
			);
			expect(second.body.error.cause.details).toMatchObject({ keepAtLeastCredits: 10, balance: 5 });
			const account = emulator.accountId(FLOOR.apiKey);
			expect(emulator.ledger(FLOOR.apiKey).map((e) => e.kind)).toEqual(['charge']);
			expect(
				emulator
					.requests({ method: 'POST', path: '/api/v1/video' })
					.filter((r) => r.account === account),
			).toHaveLength(1);
			expect(emulator.balance(FLOOR.apiKey)).toBe(5);
		});

		it('runs every example flow against the emulator', async () => {
			const started = Date.now();
			for (const id of examples.injects) await red.inject(id);
			const results = await until(
				'every example to finish',
				() => red.json<Record<string, unknown[]>>('GET', '/vs/results'),
				(r) => examples.outputs.every((id) => (r[id] ?? []).length > 0),
			);
			timings.examples = Date.now() - started;
			for (const id of examples.errors)
				expect({ id, errors: results[id] ?? [] }).toEqual({ id, errors: [] });
		});

		it('a deploy while a video renders: its id goes to the log with how to fetch it, and the node picks it up and sends it', async () => {
			emulator.setConfig({ renderMs: 20_000 });
			try {
				const known = new Set(emulator.tasks().map((t) => t.video_id));
				await red.inject('t-slow-inject');
				const [task] = await until(
					'the slow video to be submitted',
					async () => emulator.tasks().filter((t) => !known.has(t.video_id)),
					(t) => t.length > 0,
				);
				// While it renders, the ring shows for how long.
				await until(
					'the elapsed time in the status',
					() => recorded<{ id: string; text: string }>('statuses'),
					(s) => s.some((x) => x.id === 't-slow' && /^rendering 1 · \d+s$/.test(x.text)),
				);
				expect(task.finishedAt).toBeNull();
				await red.deploy(deployed);
				// The deploy returns once the flows run: an inject pressed at once finds its node.
				await red.inject('t-ping-inject');
				const log = red.logText();
				expect(log).toContain(`Closed while talking video ${task.video_id} renders (paid;`);
				expect(log).toContain(`msg.videoId = "${task.video_id}"`);
				const [done] = await until(
					'the picked-up video to be sent',
					() => recorded('slowDone'),
					(d) => d.length > 0,
					60_000,
				);
				expect(done.payload).toMatchObject({ video_id: task.video_id, status: 'created' });
				expect(done.resumed).toMatchObject({ index: 0 });
				expect(await recorded('slowFailed')).toEqual([]);
				const charged = emulator.ledger().filter((e) => e.refId === task.video_id);
				expect(charged.map((e) => e.kind)).toEqual(['charge']);
			} finally {
				emulator.setConfig({ renderMs: 1000 });
			}
		});

		it("serves help in Node-RED's format from the catalogue, labels and validators from the specs", async () => {
			const editor = await (
				await red.request('GET', '/nodes', undefined, {
					accept: 'text/html',
					'accept-language': 'en-US',
				})
			).text();
			for (const type of TYPES.filter(
				(t) => !['visionstory-config', 'visionstory-watch'].includes(t),
			)) {
				const help =
					new RegExp(`data-help-name="${type}">([\\s\\S]*?)</script>`).exec(editor)?.[1] ?? '';
				for (const heading of ['Inputs', 'Outputs', 'Details', 'References'])
					expect({ type, has: help.includes(`<h3>${heading}</h3>`) }).toEqual({ type, has: true });
				expect(help).toContain('<ol class="node-ports">');
				expect(help).toMatch(/<dt>payload <span class="property-type">/);
			}
			// The texts come from the set's catalogue as Node-RED serves it, in the language asked for.
			// A set's catalogue is served under the set's id (its name differs between 4.x and 5.x).
			const set = (await red.nodeSets()).find((s) => s.types.includes('visionstory-talking-video'));
			const catalogue = (language: string) =>
				red.json<Record<string, any>>('GET', `/locales/${set?.id}?lng=${language}`);
			const english = await catalogue('en-US');
			expect(english['visionstory-talking-video'].inputLabel).toBe(
				'text, batch of texts, audio Buffer or video id',
			);
			expect(english['visionstory-talking-video'].fields.voiceId.label).toBe('Voice');
			expect(english.visionstory.status.done).toBe('done');
			expect((await catalogue('de')).visionstory.status.done).toBe('fertig');
			expect(editor).toContain('data-i18n="visionstory-talking-video.fields.voiceId.label"');
			// The editor's validator is the runtime's check: a poll interval of 2 is marked.
			const source = /fieldProblem: (function fieldProblem[^\n]*\}),\n/.exec(editor)?.[1];
			const fieldProblem = new Function(`return ${source}`)() as (f: object, v: unknown) => string;
			expect(fieldProblem({ type: 'number', min: 5 }, 2)).toBe('must be at least 5 (got 2)');
			expect(editor).toMatch(/"pollIntervalSeconds": \{ "value": 10, "validate": function/);
		});

		it('the watch node sends each finished or failed task once, across a restart', async () => {
			// The watch node's account: the floor test's video is another account's.
			const finished = () =>
				emulator
					.tasks(emulator.apiKey)
					.filter((t) => t.finishedAt !== null)
					.map((t) => t.video_id)
					.sort();
			const watched = () => red.json<Array<{ id: string; status: string }>>('GET', '/vs/watched');
			await until('the watch node to catch up', watched, (w) => w.length >= finished().length);
			await red.stop();
			// A video made while Node-RED is down is sent after it starts again.
			const created = await fetch(`${emulator.baseUrl}/api/v1/video`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-api-key': emulator.apiKey },
				body: JSON.stringify({
					avatar_id: avatarId,
					text_script: { text: 'While you were away.', voice_id: voiceId },
				}),
			});
			const offline = ((await created.json()) as { data: { video_id: string } }).data.video_id;
			await until(
				'the offline video to render',
				async () => emulator.tasks(),
				(t) => t.some((x) => x.video_id === offline && x.finishedAt !== null),
			);
			timings.restart = await red.start();
			const after = await until('the offline video to be watched', watched, (w) =>
				w.some((x) => x.id === offline),
			);
			const ids = after.map((w) => w.id);
			expect(ids.length).toBe(new Set(ids).size);
			expect([...ids].sort()).toEqual(finished());
			expect(after.find((w) => w.id === offline)).toMatchObject({
				status: 'created',
				topic: 'talkingVideo',
			});
		});

		it('a restart while a video renders: with a file context store the node picks it up after the start', async () => {
			emulator.setConfig({ renderMs: 15_000 });
			try {
				const known = new Set(emulator.tasks().map((t) => t.video_id));
				const before = (await recorded('slowDone')).length;
				await red.inject('t-slow-inject');
				const [task] = await until(
					'the slow video to be submitted',
					async () => emulator.tasks().filter((t) => !known.has(t.video_id)),
					(t) => t.length > 0,
				);
				await red.stop();
				await red.start();
				const done = await until(
					'the video to be picked up after the restart',
					() => recorded('slowDone'),
					(d) => d.length > before,
					60_000,
				);
				expect(done.at(-1)).toMatchObject({
					payload: { video_id: task.video_id, status: 'created' },
					resumed: { index: 0 },
				});
				expect(
					emulator
						.ledger()
						.filter((e) => e.refId === task.video_id)
						.map((e) => e.kind),
				).toEqual(['charge']);
			} finally {
				emulator.setConfig({ renderMs: 1000 });
			}
		});

		/**
		 * Issue 32 items 1-3, where the behaviour is the watch node's in Node-RED: a second emulator, so
		 * its list switches never reach the checks above; each check deploys its own watch node on it.
		 */
		describe('the watch node against lists a real service may give (a second emulator)', () => {
			let lists: Emulator;

			beforeAll(async () => {
				lists = await startEmulator({
					renderMs: 1000,
					accounts: [{ apiKey: WATCH_LISTS.apiKey, credits: 1_000_000 }],
				});
			});
			afterAll(async () => await lists?.stop());

			const api = async (method: string, path: string, body?: unknown) => {
				const response = await fetch(`${lists.baseUrl}${path}`, {
					method,
					headers: { 'content-type': 'application/json', 'x-api-key': WATCH_LISTS.apiKey },
					...(body ? { body: JSON.stringify(body) } : {}),
				});
				return ((await response.json()) as { data: Record<string, any> }).data;
			};
			const talkingVideo = async (text: string): Promise<string> =>
				(
					await api('POST', '/api/v1/video', {
						avatar_id: avatarId,
						text_script: { text, voice_id: voiceId },
					})
				).video_id;
			const listPolls = () => lists.requests({ method: 'GET', path: '/api/v1/videos' }).length;
			/** What the watch node `id` sent, in order. */
			const sentBy = async (id: string) =>
				(await recorded<{ by: string; id: string }>(WATCH_LISTS.sentKey))
					.filter((s) => s.by === id)
					.map((s) => s.id);

			/** Deploys the test flows with the watch node `id` and waits for its first poll to be done. */
			async function watch(id: string, events: string[]): Promise<void> {
				await red.deploy([...deployed, ...watchListsTab(lists.baseUrl, id, events)]);
				await until(
					`${id}'s first poll`,
					() => recorded<{ id: string; text: string }>(WATCH_LISTS.statusKey),
					(s) => s.some((x) => x.id === id && x.text.startsWith('watching')),
				);
			}

			/** Waits until the list was asked `polls` more times: each poll after the first began once the one before had ended. */
			async function polled(polls: number): Promise<void> {
				const from = listPolls();
				await until(
					`${polls} more polls`,
					async () => listPolls(),
					(n) => n >= from + polls,
				);
			}

			it('issue 32.1: GET /api/v1/videos answering 404, a watch of both kinds still sends a finished AI video and a talking video it knew of', async () => {
				lists.setConfig({ renderMs: 20_000 });
				await watch('w-absent', ['talkingVideo', 'aiVideo']);
				const talking = await talkingVideo('Seen rendering before the list went away.');
				// A whole poll saw it rendering (listed) before the list answers 404.
				await polled(2);
				lists.setConfig({ talkingVideoList: 'absent', renderMs: 1000 });
				const modelId = (await api('GET', '/api/v1/ai_video/models')).models[0].model_id;
				const ai = (
					await api('POST', '/api/v1/ai_video', { model_id: modelId, prompt: 'A lighthouse' })
				).video_id as string;
				const sent = await until(
					'both videos to be sent',
					() => sentBy('w-absent'),
					(s) => s.length >= 2,
				);
				expect(lists.tasks().find((t) => t.video_id === talking)?.finishedAt).not.toBeNull();
				expect([...sent].sort()).toEqual([talking, ai].sort());
				expect(red.logText()).toMatch(/talking videos.*GET \/api\/v1\/videos.*cannot be used/);
			});

			it('issue 32.1: list entries carrying ids only, the finished talking video is read by id and sent', async () => {
				lists.setConfig({ talkingVideoList: 'idsOnly', renderMs: 1000 });
				await watch('w-ids', ['talkingVideo']);
				const talking = await talkingVideo('Listed by id only.');
				const sent = await until(
					'the video to be sent',
					() => sentBy('w-ids'),
					(s) => s.length > 0,
				);
				expect(sent).toEqual([talking]);
				expect(red.logText()).toMatch(/talking videos.*gives no status/);
			});

			it('issue 32.2: videos whose created_at is up to 60 s early, after one already seen, are all sent', async () => {
				lists.setConfig({ talkingVideoList: 'paged', renderMs: 1000 });
				await watch('w-skew', ['talkingVideo']);
				const first = await talkingVideo('The first one.');
				await until(
					'the first to be sent',
					() => sentBy('w-skew'),
					(s) => s.length > 0,
				);
				lists.setConfig({ createdAtSkewSeconds: 60 });
				const skewed: string[] = [];
				for (let i = 0; i < 5; i++) skewed.push(await talkingVideo(`Skewed ${i}.`));
				const createdAt = async (id: string) =>
					(await api('GET', `/api/v1/video?video_id=${id}`)).created_at as number;
				// At least one is listed as older than the one already seen: a walk that stops there misses it.
				const firstAt = await createdAt(first);
				expect((await Promise.all(skewed.map(createdAt))).some((at) => at < firstAt)).toBe(true);
				await until(
					'all six to be sent',
					() => sentBy('w-skew'),
					(s) => s.length >= 6,
				);
				await polled(2);
				const sent = await sentBy('w-skew');
				expect([...sent].sort()).toEqual([first, ...skewed].sort());
				lists.setConfig({ createdAtSkewSeconds: 0 });
			});

			it('issue 32.3: 150 talking videos rendering when the flow is deployed are all sent, each once, when they finish', async () => {
				lists.setConfig({ talkingVideoList: 'paged', createdAtSkewSeconds: 0, renderMs: 20_000 });
				const made: string[] = [];
				for (let i = 0; i < 150; i += 25)
					made.push(
						...(await Promise.all(
							Array.from({ length: 25 }, async (_, j) => await talkingVideo(`Clip ${i + j}.`)),
						)),
					);
				await watch('w-backlog', ['talkingVideo']);
				// Its first poll found every one still rendering.
				const fresh = new Set(made);
				expect(lists.tasks().filter((t) => fresh.has(t.video_id) && t.finishedAt !== null)).toEqual(
					[],
				);
				await until(
					'the 150 to be sent',
					() => sentBy('w-backlog'),
					(s) => s.length >= 150,
					120_000,
				);
				await polled(2);
				const sent = await sentBy('w-backlog');
				expect(sent).toHaveLength(150);
				expect([...sent].sort()).toEqual([...made].sort());
			});
		});
	});
}
