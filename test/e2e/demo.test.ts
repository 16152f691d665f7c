/**
 * The README's first command: `npm run demo` runs every example in real n8n 1.x against the emulator
 * (the build is done by `npm test` before this suite). It must end with every example a success, the
 * files it promises in the output folder, and the credits its steps report equal to the emulator's ledger.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const DEMO_TIMEOUT_MS = 840_000;

function runDemo(outDir: string): Promise<{ code: number | null; output: string }> {
	return new Promise((resolve) => {
		const env: NodeJS.ProcessEnv = { ...process.env, DEMO_OUT_DIR: outDir };
		delete env.VISIONSTORY_API_KEY;
		const child = spawn(
			process.execPath,
			[join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'scripts/demo.ts'), 'n8n1'],
			{ cwd: root, env },
		);
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		// Ends before the hook's own timeout, so a hung demo fails this suite instead of outliving it.
		const timer = setTimeout(() => child.kill('SIGKILL'), DEMO_TIMEOUT_MS);
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({ code, output });
		});
	});
}

describe('npm run demo (n8n 1.x, the emulator)', () => {
	const outDir = mkdtempSync(join(tmpdir(), 'vs-demo-'));
	let run: { code: number | null; output: string };
	let summary = '';

	beforeAll(async () => {
		run = await runDemo(outDir);
		summary = existsSync(join(outDir, 'SUMMARY.md'))
			? readFileSync(join(outDir, 'SUMMARY.md'), 'utf8')
			: '';
	}, 900_000);

	afterAll(() => rmSync(outDir, { recursive: true, force: true }));

	test('exits 0 with every example a success, the agent example included (its model played on loopback)', () => {
		expect({ code: run.code, tail: run.code === 0 ? '' : run.output.slice(-3000) }).toEqual({
			code: 0,
			tail: '',
		});
		const statuses = [...summary.matchAll(/^`examples\/(.+)\.json`: (\w+) in/gm)].map(
			([, example, status]) => [example, status],
		);
		expect(statuses.length).toBeGreaterThanOrEqual(10);
		expect(statuses.filter(([, status]) => status !== 'success')).toEqual([]);
		expect(statuses.map(([example]) => example)).toContain('agent-brief-to-voice-over-and-video');
		expect(summary).toMatch(
			/\| AI Agent \| answered: "Done: list_voices, list_avatars, synthesize_speech, create_talking_video, check_video_status" \|/,
		);
	});

	test('the credits the steps report are what the emulator charged', () => {
		const reported = Number(/Credits spent, from the steps' outputs: (\d+)/.exec(summary)?.[1]);
		const net = Number(/The emulator's ledger: .*\(net (\d+)\)/.exec(summary)?.[1]);
		expect(net).toBeGreaterThan(0);
		expect(reported).toBe(net);
	});

	test('the files it promises are in the output folder: a talking video, an AI video, images, speech and subtitles', () => {
		const files = [...summary.matchAll(/`([^`]+\.(mp4|png|jpg|mp3|srt|vtt))`/g)].map(
			([, file]) => file,
		);
		for (const extension of ['mp4', 'png', 'mp3', 'srt'])
			expect(files.some((f) => f.endsWith(`.${extension}`))).toBe(true);
		for (const file of files) expect(existsSync(join(outDir, file))).toBe(true);
	});
});
