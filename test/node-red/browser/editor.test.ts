/**
 * The Node-RED editor as a user meets the package, on each supported line: every node in the palette
 * under VisionStory, each node's help listing its inputs and outputs, and a value the runtime would
 * refuse marked on the canvas and in the edit dialog before anything is deployed. Nothing sleeps:
 * every read waits for what the user would wait for. A failure leaves a screenshot under .e2e/.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';

import { launchChromium } from '../../../scripts/n8n/editor';
import { ensureNodeRed } from '../../../scripts/node-red/install';
import { NodeRedInstance } from '../../../scripts/node-red/instance';
import { installIntoUserDir, packNodeRedPackage } from '../../../scripts/node-red/package';
import { NODE_RED_LINES } from '../../../scripts/node-red/versions';
import { REPO_ROOT } from '../../../scripts/paths';
import { until } from '../../browser/editor';

/** What the palette lists (config nodes live in the config sidebar, not the palette). */
const PALETTE = [
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

type EditorWindow = { RED: any };

for (const line of Object.values(NODE_RED_LINES)) {
	describe(`the Node-RED ${line.nodeRed} editor`, () => {
		let red: NodeRedInstance;
		let browser: Browser;
		let page: Page;
		const work = join(REPO_ROOT, '.e2e', `node-red-browser-${line.id}`);

		beforeAll(async () => {
			const install = await ensureNodeRed(line, () => undefined);
			rmSync(work, { recursive: true, force: true });
			mkdirSync(work, { recursive: true });
			const pkg = await packNodeRedPackage(join(work, 'pack'));
			const userDir = join(work, 'user');
			await installIntoUserDir(pkg, userDir, install.nodeBin);
			red = await NodeRedInstance.create({ install, userDir, contextStore: 'memory' });
			await red.start();
			browser = await launchChromium(() => undefined);
			page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
			await page.goto(red.baseUrl);
			await page.locator('#red-ui-palette .red-ui-palette-node').first().waitFor();
		}, 300_000);

		afterEach(async () => {
			const state = expect.getState();
			if (state.assertionCalls > 0 && page)
				await page
					.screenshot({
						path: join(work, `${state.currentTestName ?? 'test'}.png`.replace(/\s+/g, '-')),
					})
					.catch(() => undefined);
		});

		afterAll(async () => {
			await browser?.close();
			await red?.stop();
		});

		it('shows every node in the palette, under VisionStory', async () => {
			const listed = await until(
				'the VisionStory nodes in the palette',
				() =>
					page
						.locator('#red-ui-palette .red-ui-palette-node[data-palette-type^="visionstory-"]')
						.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-palette-type'))),
				(types) => types.length >= PALETTE.length,
			);
			expect([...listed].sort()).toEqual([...PALETTE].sort());
			const category = await page
				.locator('.red-ui-palette-category', {
					has: page.locator('[data-palette-type="visionstory-talking-video"]'),
				})
				.locator('.red-ui-palette-header')
				.innerText();
			expect(category).toMatch(/visionstory/i);
		});

		it("opens each node's help with its inputs and outputs", async () => {
			for (const type of PALETTE.filter((t) => t !== 'visionstory-watch')) {
				await page.evaluate(
					(t) => (window as unknown as EditorWindow).RED.sidebar.help.show(t),
					type,
				);
				const help = await until(
					`the help of ${type}`,
					async () =>
						(await page.locator('.red-ui-help').filter({ visible: true }).allInnerTexts()).join(
							'\n',
						),
					(text) => text.includes('Outputs'),
				);
				for (const heading of ['Inputs', 'Outputs', 'Details', 'References'])
					expect({ type, heading, shown: help.includes(heading) }).toEqual({
						type,
						heading,
						shown: true,
					});
				expect(help).toMatch(/payload/);
				expect(help).toMatch(/failed/);
				expect(help).toMatch(/error\s*object/);
			}
		});

		it('marks a poll interval the runtime would refuse, on the canvas and in the edit dialog, before any deploy', async () => {
			await page.evaluate(() => {
				const { RED } = window as unknown as EditorWindow;
				RED.view.importNodes(
					[
						{
							id: 'bad-poll',
							type: 'visionstory-talking-video',
							name: 'bad poll',
							operation: 'create',
							waitForCompletion: true,
							pollIntervalSeconds: 2,
							x: 300,
							y: 200,
							wires: [[], []],
						},
					],
					{ generateIds: false },
				);
			});
			const valid = () =>
				page.evaluate(() => (window as unknown as EditorWindow).RED.nodes.node('bad-poll')?.valid);
			expect(await until('the node to be checked', valid, (v) => v !== undefined)).toBe(false);
			await until(
				'the error marker on the node',
				() => page.locator('.red-ui-flow-node-error').filter({ visible: true }).count(),
				(n) => n > 0,
			);
			await page.evaluate(() => {
				const { RED } = window as unknown as EditorWindow;
				RED.editor.edit(RED.nodes.node('bad-poll'));
			});
			const field = page.locator('#node-input-pollIntervalSeconds');
			await field.waitFor();
			await until(
				'the field to be marked',
				() => field.getAttribute('class'),
				(c) => (c ?? '').includes('input-error'),
			);
			await field.fill('10');
			await field.dispatchEvent('change');
			await until(
				'the mark to go once the value is allowed',
				() => field.getAttribute('class'),
				(c) => !(c ?? '').includes('input-error'),
			);
			// The result property is a TypedInput of type msg, as core nodes have it.
			const typed = page
				.locator('.form-row', { has: page.locator('#node-input-outputProperty') })
				.locator('.red-ui-typedInput-container');
			expect(await typed.count()).toBe(1);
			expect(await typed.innerText()).toContain('msg.');
			await page.locator('#node-dialog-cancel').click();
		});

		it('the outputs follow the Failure output setting, and a Check Status node saved by 1.0.0 keeps its still-rendering wire', async () => {
			await page.evaluate(() => {
				const { RED } = window as unknown as EditorWindow;
				RED.view.importNodes(
					[
						{
							id: 'old-check',
							type: 'visionstory-talking-video',
							name: 'saved by 1.0.0',
							operation: 'check',
							outputs: 3,
							x: 300,
							y: 300,
							wires: [[], [], ['sink']],
						},
						{ id: 'sink', type: 'debug', name: 'still rendering', x: 600, y: 300, wires: [] },
					],
					{ generateIds: false },
				);
			});
			/** Opens the node's dialog, sets the checkbox, and saves: its outputs, and the port the sink hangs on. */
			const save = async (failureOutput: boolean | undefined) => {
				// The dialog before (this test's, or the last test's) has gone.
				await page.locator('#node-input-operation').waitFor({ state: 'detached' });
				await page.evaluate(() => {
					const { RED } = window as unknown as EditorWindow;
					RED.editor.edit(RED.nodes.node('old-check'));
				});
				const box = page.locator('#node-input-failureOutput');
				await box.waitFor();
				// The dialog is ready once it shows the node's values.
				await until(
					'the dialog to show the node',
					() => page.locator('#node-input-operation').inputValue(),
					(v) => v === 'check',
				);
				const shown = await box.isChecked();
				if (failureOutput !== undefined) await box.setChecked(failureOutput);
				await page.locator('#node-dialog-ok').click();
				await box.waitFor({ state: 'detached' });
				return {
					shown,
					...(await page.evaluate(() => {
						const { RED } = window as unknown as EditorWindow;
						const node = RED.nodes.node('old-check');
						const links = RED.nodes.filterLinks({ source: node }) as Array<{
							sourcePort: number | string;
							target: { id: string };
						}>;
						return {
							outputs: node.outputs,
							// Node-RED keeps a moved wire's port as text.
							sink: Number(links.find((l) => l.target.id === 'sink')?.sourcePort),
						};
					})),
				};
			};
			// Nothing wired to its failure output: it reads as off, and still rendering moves to output 2.
			expect(await save(undefined)).toEqual({ shown: false, outputs: 2, sink: 1 });
			// On: the failure output comes back second, still rendering third.
			expect(await save(true)).toEqual({ shown: false, outputs: 3, sink: 2 });
			expect(await save(false)).toEqual({ shown: true, outputs: 2, sink: 1 });
		});
	});
}
