/**
 * The VisionStory node in the real n8n editor, in Debian's Chromium: one n8n start per line (the
 * packed package installed as a community package, the emulator as VisionStory), one browser page
 * working through what a user does: find each capability in the nodes panel by name, add it, use
 * the searchable pickers and a model-dependent option, test the credential, run a step. Every
 * assertion reads what the page shows; a failure leaves a screenshot under .e2e/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser, BrowserContext, Page } from 'playwright-core';

import { launchChromium, signIn } from '../../scripts/n8n/editor';
import { repoRoot } from '../../scripts/n8n/installSteps';
import { N8nRest } from '../../scripts/n8n/rest';
import { prepareSession, type N8nSession } from '../../scripts/n8n/session';
import type { N8nLine } from '../../scripts/n8n/versions';
import { startEmulator, type Emulator } from '../emulator';
import { Editor, until } from './editor';

const NODE_TYPE = 'n8n-nodes-visionstory.visionStory';
/** The name the nodes panel lists the node (and its trigger) under. */
const PANEL_NAME = 'VisionStory';

interface PanelAction {
	/** What the user types into the nodes panel. */
	search: string;
	/** n8n's action text of the operation, listed under the node. */
	action: string;
	resource: string;
	operation: string;
}

/** The words, and the operations they must lead to (values of design.md's public interface). */
export const PANEL_ACTIONS: PanelAction[] = [
	{
		search: 'talking video',
		action: 'Create a talking video',
		resource: 'talkingVideo',
		operation: 'create',
	},
	{
		search: 'text to speech',
		action: 'Convert text to speech',
		resource: 'textToSpeech',
		operation: 'synthesize',
	},
	{ search: 'voice', action: 'Clone a voice', resource: 'voice', operation: 'clone' },
	{ search: 'avatar', action: 'Create an avatar', resource: 'avatar', operation: 'create' },
	{ search: 'transcribe', action: 'Transcribe audio', resource: 'align', operation: 'transcribe' },
	{ search: 'ai video', action: 'Create an AI video', resource: 'aiVideo', operation: 'create' },
];

function panelAction(action: string): PanelAction {
	const found = PANEL_ACTIONS.find((a) => a.action === action);
	if (!found) throw new Error(`no panel action "${action}"`);
	return found;
}

interface NodeOption {
	name: string;
	value: string;
}
interface NodeProperty {
	name: string;
	options?: NodeOption[];
	displayOptions?: { show?: Record<string, unknown[]> };
}

function hasProperties(node: unknown): node is { properties: NodeProperty[] } {
	return Array.isArray((node as { properties?: unknown }).properties);
}

/** The names the editor shows for a resource and operation value, from the description n8n serves. */
function shownNames(
	properties: NodeProperty[],
	resource: string,
	operation: string,
): { resource: string; operation: string } {
	const resourceName = properties
		.find((p) => p.name === 'resource')
		?.options?.find((o) => o.value === resource)?.name;
	const operationName = properties
		.filter((p) => p.name === 'operation')
		.find((p) => p.displayOptions?.show?.resource?.includes(resource))
		?.options?.find((o) => o.value === operation)?.name;
	if (!resourceName || !operationName)
		throw new Error(`the node describes no ${resource} → ${operation}`);
	return { resource: resourceName, operation: operationName };
}

interface Avatar {
	avatar_id: string;
}
interface Voice {
	voice_id: string;
}
interface AiVideoModel {
	model_id: string;
	name: string;
	params: { duration_sec: { values: number[] } };
}

const SETUP_TIMEOUT_MS = 20 * 60_000;
const STEP_TIMEOUT_MS = 3 * 60_000;

export function describeEditor(line: N8nLine): void {
	describe(`the VisionStory node in the editor of n8n ${line.n8n} (Chromium)`, () => {
		let emulator: Emulator;
		let session: N8nSession;
		let browser: Browser;
		let context: BrowserContext;
		let page: Page;
		let editor: Editor;
		let properties: NodeProperty[];

		/** What the service answers, read the way the node reads it (its API, the emulator's key). */
		async function service<T>(path: string): Promise<T> {
			const response = await fetch(`${emulator.baseUrl}${path}`, {
				headers: { 'X-API-Key': emulator.apiKey },
			});
			if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status}`);
			return ((await response.json()) as { data: T }).data;
		}

		/** A test whose failure carries a screenshot of the page as it was. */
		function step(name: string, body: () => Promise<void>): void {
			test(
				name,
				async () => {
					try {
						await editor.clearCanvas();
						await body();
					} catch (error) {
						const dir = join(repoRoot(), '.e2e', 'browser-failures');
						mkdirSync(dir, { recursive: true });
						const file = join(
							dir,
							`${line.id}-${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}.png`,
						);
						const saved = await page
							.screenshot({ path: file, fullPage: true })
							.then(() => `screenshot: ${file}`)
							.catch((e: unknown) => `no screenshot (${String(e)})`);
						// The next test starts from a fresh editor, whatever this one left open.
						await editor.newWorkflow().catch(() => undefined);
						const message = error instanceof Error ? error.message : String(error);
						throw new Error(`${message}\n${saved}`, { cause: error });
					}
				},
				STEP_TIMEOUT_MS,
			);
		}

		/** Searches the nodes panel, opens the node, adds the action: its parameters open. */
		async function addFromPanel(action: PanelAction): Promise<void> {
			if (await editor.ndv.isVisible()) await editor.closeNdv();
			await editor.openNodesPanel();
			await editor.searchPanel(action.search);
			await editor.choosePanelItem(
				PANEL_NAME,
				`"${PANEL_NAME}" among the results for "${action.search}"`,
			);
			await editor.chooseAction(action.action, `"${action.action}" among ${PANEL_NAME}'s actions`);
			await editor.ndv.waitFor();
		}

		beforeAll(async () => {
			// The browser first: a missing Chromium is installed (or refused) before n8n's minute of starting.
			browser = await launchChromium();
			emulator = await startEmulator({ renderMs: 2000 });
			session = await prepareSession({
				line,
				userFolder: join(repoRoot(), '.e2e', `browser-${line.id}`),
				service: { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl },
			});
			await session.instance.start();
			const rest = new N8nRest(session.instance.baseUrl);
			await rest.setupOwner();
			// The descriptions the editor itself loads (types/nodes.json carries every property).
			const node: unknown = (await rest.types('nodes')).find((t) => t.name === NODE_TYPE);
			if (!node) throw new Error(`n8n ${line.n8n} does not offer ${NODE_TYPE}`);
			if (!hasProperties(node))
				throw new Error(`n8n ${line.n8n} serves ${NODE_TYPE} without properties`);
			properties = node.properties;
			context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
			page = await context.newPage();
			editor = new Editor(page, session.instance.baseUrl);
			await signIn(page, session.instance.baseUrl);
			await editor.newWorkflow();
		}, SETUP_TIMEOUT_MS);

		afterAll(async () => {
			await context?.close();
			await browser?.close();
			await session?.instance.stop();
			await emulator?.stop();
		});

		step(
			'the nodes panel finds every capability by name and adds it with its resource and operation',
			async () => {
				for (const action of PANEL_ACTIONS) {
					await addFromPanel(action);
					const expected = shownNames(properties, action.resource, action.operation);
					expect({
						search: action.search,
						resource: await editor.parameterText('resource'),
						operation: await editor.parameterText('operation'),
					}).toEqual({ search: action.search, ...expected });
				}
			},
		);

		step("the avatar picker lists the service's avatars and finds one by search", async () => {
			await addFromPanel(panelAction('Create a talking video'));
			const own = await service<{ avatars: Avatar[] }>('/api/v1/avatars?is_public=false&limit=100');
			const library = await service<{ avatars: Avatar[] }>(
				'/api/v1/avatars?is_public=true&limit=100',
			);
			const ids = [...own.avatars, ...library.avatars].map((a) => a.avatar_id);
			expect(own.avatars.length).toBeGreaterThan(0);

			await editor.openList('avatarId');
			const rows = await until(
				'the avatar list',
				() => editor.listRows(),
				(r) => r.length > own.avatars.length,
			);
			// Own avatars first, then the public library, in the service's order.
			expect(rows.map((row, i) => row.includes(ids[i]))).toEqual(rows.map(() => true));

			const wanted = library.avatars[1].avatar_id;
			await editor.searchList(wanted);
			const found = await until(
				`the avatar list filtered to "${wanted}"`,
				() => editor.listRows(),
				(r) => r.length > 0 && r.every((row) => row.includes(wanted)),
			);
			expect(found.some((row) => row.includes(wanted))).toBe(true);
			await editor.pickRow(wanted);
			expect(await editor.locatorText('avatarId')).toContain(wanted);
		});

		step(
			"the voice picker lists the service's voices, and Execute step shows the speech",
			async () => {
				await addFromPanel(panelAction('Convert text to speech'));
				const voices = await service<{ my_voices: Voice[]; public_voices: Voice[] }>(
					'/api/v1/voices?limit=200',
				);
				const ids = [...voices.my_voices, ...voices.public_voices].map((v) => v.voice_id);

				await editor.openList('voiceId');
				const rows = await until(
					'the voice list',
					() => editor.listRows(),
					(r) => r.length > 1,
				);
				expect(rows.map((row, i) => row.includes(ids[i]))).toEqual(rows.map(() => true));

				const wanted = voices.public_voices[3].voice_id;
				await editor.searchList(wanted);
				await until(
					`the voice list filtered to "${wanted}"`,
					() => editor.listRows(),
					(r) => r.length > 0 && r.every((row) => row.includes(wanted)),
				);
				await editor.pickRow(wanted);
				expect(await editor.locatorText('voiceId')).toContain(wanted);

				await editor.fillParameter('text', 'Hello from the browser test.');
				const charges = emulator.ledger().length;
				await editor.executeStep();
				const charge = await until(
					'the speech charged by the service',
					async () => emulator.ledger().slice(charges),
					(entries) => entries.length > 0,
				);
				const shown = await until(
					'the output panel',
					() => editor.output.innerText(),
					(text) => /\b1 item\b/.test(text) && text.includes(charge[0].refId),
				);
				expect(shown).toContain('1 item');
			},
		);

		step('the AI video durations follow the chosen model', async () => {
			const { models } = await service<{ models: AiVideoModel[] }>('/api/v1/ai_video/models');
			const durations = (m: AiVideoModel) => m.params.duration_sec.values;
			const first = models[0];
			const other = models.find((m) => durations(m).join() !== durations(first).join());
			if (!other) throw new Error('the service offers no two models with different durations');

			await addFromPanel(panelAction('Create an AI video'));
			// The first option is the model's default; the others are the durations it offers.
			const offered = (names: string[]) => names.slice(1).map((n) => Number.parseFloat(n));
			for (const model of [first, other]) {
				await editor.openList('modelId');
				await until(
					`${model.name} in the model list`,
					() => editor.listRows(),
					(r) => r.some((row) => row.includes(model.name)),
				);
				await editor.pickRow(model.name);
				const names = await editor.optionNames(
					'duration',
					`the durations of ${model.name}`,
					(n) => offered(n).join() === durations(model).join(),
				);
				expect(offered(names)).toEqual(durations(model));
			}
		});

		step("the credential's test succeeds against the service", async () => {
			await addFromPanel(panelAction('Transcribe audio'));
			const credits = () =>
				emulator
					.requests({ origin: 'api' })
					.filter((r) => r.path === '/api/v1/billing/credits' && r.apiKey === 'valid').length;
			const before = credits();
			const dialog = await editor.openNodeCredential();
			await until(
				'the connection test',
				() => dialog.innerText(),
				(text) => text.includes('Connection tested successfully'),
			);
			expect(credits()).toBeGreaterThan(before);
			await page.keyboard.press('Escape');
		});
	});
}
