/**
 * The real n8n editor in Debian's Chromium, driven by playwright-core (which never downloads a
 * browser of its own): launching it, signing in as the test owner, closing what a fresh n8n pops up.
 * Used by `npm run screenshots` and the browser test (test/browser).
 */
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

import { ensureDebianProgram } from './queue/debian';
import { TEST_OWNER } from './rest';

// Without the background-networking flags Chromium keeps dialling Google's hosts, which this
// machine's closed network refuses; playwright adds --headless and a fresh --user-data-dir itself.
const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** Debian's Chromium (CHROMIUM_PATH overrides), installed with apt-get when missing. */
export async function chromiumPath(log: (line: string) => void = console.log): Promise<string> {
	if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
	return await ensureDebianProgram(
		['/usr/bin/chromium'],
		['chromium'],
		'driving the n8n editor',
		log,
	);
}

export async function launchChromium(log?: (line: string) => void): Promise<Browser> {
	return await chromium.launch({
		executablePath: await chromiumPath(log),
		headless: true,
		args: CHROMIUM_ARGS,
	});
}

/** The sign-in form of both lines (2.x labels its fields, 1.x does not: inputs are found by type). */
export async function signIn(page: Page, baseUrl: string): Promise<void> {
	await page.goto(`${baseUrl}/signin`);
	await page.locator('input[type="email"]').fill(TEST_OWNER.email);
	await page.locator('input[type="password"]').fill(TEST_OWNER.password);
	await page.getByRole('button', { name: /sign in/i }).click();
	await page.waitForURL((url) => !url.pathname.includes('signin'), { timeout: 30_000 });
}

/** Closes the onboarding and news pop-ups a fresh n8n shows. */
export async function dismissPopups(page: Page): Promise<void> {
	for (const name of [/skip/i, /got it/i, /close/i, /dismiss/i, /maybe later/i]) {
		const button = page.getByRole('button', { name }).first();
		if (await button.isVisible().catch(() => false)) await button.click().catch(() => undefined);
	}
	await page.keyboard.press('Escape');
}
