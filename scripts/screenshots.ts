/**
 * npm run screenshots: the README's pictures, taken headlessly in the real n8n editor with Debian's
 * Chromium (installed with apt-get when missing), against the emulator. Writes docs/screenshots/*.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Page } from 'playwright-core';

import { startEmulator } from '../test/emulator';
import { startCallbackServer } from './n8n/callbackServer';
import { dismissPopups, launchChromium, signIn } from './n8n/editor';
import { repoRoot } from './n8n/installSteps';
import { freePort } from './n8n/ports';
import { N8nRest } from './n8n/rest';
import { prepareSession } from './n8n/session';
import { lineFromArg } from './n8n/versions';

const out = join(repoRoot(), 'docs', 'screenshots');

async function shot(page: Page, name: string): Promise<void> {
	await page.waitForTimeout(800);
	await page.screenshot({ path: join(out, `${name}.png`) });
	console.log(`docs/screenshots/${name}.png`);
}

async function main(): Promise<void> {
	mkdirSync(out, { recursive: true });
	const line = lineFromArg(process.argv[2] ?? 'n8n2');
	const emulator = await startEmulator({ renderMs: 3000 });
	const callback = await startCallbackServer();
	const port = await freePort();
	const session = await prepareSession({
		line,
		userFolder: join(repoRoot(), '.e2e', 'screenshots'),
		port,
		service: { apiKey: emulator.apiKey, baseUrl: emulator.baseUrl },
		callbackUrl: callback.url,
		log: (l) => console.log(l),
	});
	const browser = await launchChromium();
	try {
		await session.instance.start();
		await new N8nRest(session.instance.baseUrl).setupOwner();
		const page = await browser.newPage({
			viewport: { width: 1440, height: 900 },
			deviceScaleFactor: 1,
		});
		await signIn(page, session.instance.baseUrl);
		await dismissPopups(page);

		// 1. The nodes panel of a workflow that has its trigger, searched by what the user wants to do:
		// the VisionStory actions that match.
		await page.goto(
			`${session.instance.baseUrl}/workflow/${session.examples['script-to-talking-video'].id}`,
		);
		await page.waitForLoadState('networkidle');
		await dismissPopups(page);
		await page
			.locator('[data-test-id="node-creator-plus-button"]')
			.first()
			.click({ timeout: 5000 })
			.catch(() => page.keyboard.press('Tab'));
		await page.locator('[data-test-id="node-creator-search-bar"]').fill('talking video');
		// The VisionStory entry opens on its actions, the search still applied.
		await page.keyboard.press('Enter');
		await page
			.getByText(/Create a talking video/)
			.first()
			.waitFor({ timeout: 10_000 })
			.catch(() => undefined);
		await shot(page, 'node-panel');
		await page.keyboard.press('Escape');

		// 2. An example executed.
		const workflowId = session.examples['script-to-talking-video'].id;
		await page.goto(`${session.instance.baseUrl}/workflow/${workflowId}`);
		await page.waitForLoadState('networkidle');
		await dismissPopups(page);
		await page.locator('[data-test-id="execute-workflow-button"]').first().click();
		// The last node shows its success mark once the render is in (about one render plus one poll).
		await page
			.waitForFunction(
				() => document.querySelectorAll('[data-test-id="canvas-node-status-success"]').length >= 4,
				undefined,
				{ timeout: 120_000 },
			)
			.catch(async () => {
				await page.screenshot({ path: '/tmp/exec-debug.png' });
				const ids = await page.$$eval('[data-test-id]', (els) =>
					[...new Set(els.map((e) => e.getAttribute('data-test-id')))].join(' '),
				);
				throw new Error(`the workflow did not finish; test ids on the page: ${ids}`);
			});
		await page
			.locator('[data-test-id="canvas-node"][data-node-name="Create Talking Video"]')
			.dblclick();
		await page
			.getByText(/binary/i)
			.first()
			.waitFor({ timeout: 10_000 })
			.catch(() => undefined);
		await shot(page, 'executed-node');
		await page.keyboard.press('Escape');
		await shot(page, 'executed-workflow');
		// 3. A node's parameters with the avatar picker open (switched from the example's expression to the list;
		// n8n 2.x saves that change, so this comes last and uses another example).
		await page.goto(
			`${session.instance.baseUrl}/workflow/${session.examples['image-to-avatar-to-talking-video'].id}`,
		);
		await page.waitForLoadState('networkidle');
		await dismissPopups(page);
		await page
			.locator('[data-test-id="canvas-node"][data-node-name="Create Talking Video"]')
			.dblclick();
		await page.locator('[data-test-id="parameter-input-avatarId"]').hover();
		await page
			.locator(
				'[data-test-id="avatarId-parameter-input-options-container"] [data-test-id="radio-button-fixed"]',
			)
			.click();
		await page
			.locator('[data-test-id="resource-locator-avatarId"] [data-test-id="rlc-mode-selector"]')
			.click();
		await page
			.locator('[data-test-id="mode-list"]:visible')
			.first()
			.click({ timeout: 5000 })
			.catch(() => page.keyboard.press('Escape'));
		await page
			.locator('[data-test-id="resource-locator-avatarId"] [data-test-id="rlc-input"]')
			.click();
		await page
			.getByText(/Public · /)
			.first()
			.waitFor();
		await shot(page, 'avatar-picker');
	} finally {
		await browser.close();
		await session.instance.stop();
		await callback.stop();
		await emulator.stop();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
