/**
 * The n8n editor as a user works it, for both lines: the nodes panel, a node's parameters (options,
 * searchable lists), Execute step and the output, the credential dialog. Selectors are n8n's own
 * data-test-id attributes where 1.123 and 2.40 share them; where they differ both are named.
 * Nothing here sleeps: every read waits for what the user would wait for.
 */
import type { Locator, Page } from 'playwright-core';

const WAIT_MS = 30_000;

/**
 * Reads until `done` accepts what was read, polling the page; the error names what was awaited
 * and the last reading, so a failure says what the user saw instead.
 */
export async function until<T>(
	what: string,
	read: () => Promise<T>,
	done: (value: T) => boolean,
	timeoutMs = WAIT_MS,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let last: T | undefined;
	let failure: unknown;
	for (;;) {
		try {
			last = await read();
			failure = undefined;
			if (done(last)) return last;
		} catch (error) {
			failure = error;
		}
		if (Date.now() > deadline) {
			const seen = failure instanceof Error ? failure.message : JSON.stringify(last, null, 1);
			throw new Error(`waited ${timeoutMs / 1000} s for ${what}; last seen: ${seen}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 150));
	}
}

const testId = (id: string) => `[data-test-id="${id}"]`;

export class Editor {
	constructor(
		readonly page: Page,
		readonly baseUrl: string,
	) {}

	/** An empty workflow; the nodes panel opens on its first step. */
	async newWorkflow(): Promise<void> {
		await this.page.goto(`${this.baseUrl}/workflow/new`);
		await this.page.locator(testId('canvas-add-button')).first().waitFor();
	}

	/** Every node removed (select all, Delete): an empty workflow without reloading the editor. */
	async clearCanvas(): Promise<void> {
		if (await this.ndv.isVisible()) await this.closeNdv();
		if (await this.page.locator(testId('canvas-add-button')).filter({ visible: true }).count())
			return;
		await this.page.locator(testId('canvas-wrapper')).click({ position: { x: 20, y: 20 } });
		await this.page.keyboard.press('ControlOrMeta+a');
		await this.page.keyboard.press('Delete');
		await this.page.locator(testId('canvas-add-button')).first().waitFor();
	}

	// The nodes panel

	get panel(): Locator {
		return this.page.locator(testId('node-creator'));
	}

	/** The first step's button on an empty canvas, the panel's + button otherwise. */
	async openNodesPanel(): Promise<void> {
		const firstStep = this.page.locator(testId('canvas-add-button')).filter({ visible: true });
		if (await firstStep.count()) await firstStep.first().click();
		else await this.page.locator(testId('node-creator-plus-button')).click();
		await this.panel.waitFor();
	}

	async searchPanel(term: string): Promise<void> {
		await this.panel.locator(testId('node-creator-search-bar')).fill(term);
	}

	/** The names the panel lists (nodes in search results; actions once a node is open). */
	async panelNames(): Promise<string[]> {
		return (await this.panel.locator(testId('node-creator-item-name')).allInnerTexts()).map((t) =>
			t.trim(),
		);
	}

	/** Waits until the panel lists `name`, then clicks it. */
	async choosePanelItem(name: string, what: string): Promise<void> {
		await until(
			what,
			() => this.panelNames(),
			(list) => list.includes(name),
		);
		await this.panelItem(name).click();
	}

	private panelItem(name: string): Locator {
		return this.panel
			.locator(testId('node-creator-item-name'))
			.getByText(name, { exact: true })
			.first();
	}

	/**
	 * Clicks one of the open node's actions. On an empty canvas the panel offers triggers first and
	 * folds the actions under their "Actions (n)" heading (its chevron then points up): unfolded as a
	 * user would.
	 */
	async chooseAction(name: string, what: string): Promise<void> {
		const heading = this.panel
			.locator(testId('node-creator-category-item'))
			.filter({ hasText: /^\s*Actions\b/ });
		await heading.waitFor();
		if (await heading.locator('[data-icon="chevron-up"]').count()) await heading.click();
		await this.choosePanelItem(name, what);
	}

	// The node's parameters (NDV)

	get ndv(): Locator {
		return this.page.locator(testId('ndv'));
	}

	/** Back to the canvas (2.x closes the dialog, 1.x has a back button). */
	async closeNdv(): Promise<void> {
		await this.page
			.locator(`${testId('ndv-close-button')}, ${testId('back-to-canvas')}`)
			.filter({ visible: true })
			.first()
			.click();
		await this.ndv.waitFor({ state: 'hidden' });
	}

	parameter(name: string): Locator {
		return this.ndv.locator(testId(`parameter-input-${name}`));
	}

	/** What an options parameter shows (its selected option's name). */
	async parameterText(name: string): Promise<string> {
		await this.parameter(name).waitFor();
		return await this.parameter(name).locator('input').first().inputValue();
	}

	async fillParameter(name: string, value: string): Promise<void> {
		await this.parameter(name).locator('textarea, input').first().fill(value);
	}

	/** Opens an options parameter and returns the option names it lists once `done` accepts them. */
	async optionNames(name: string, what: string, done: (names: string[]) => boolean) {
		const input = this.parameter(name).locator('input').first();
		await input.click();
		// The dropdown lives outside the parameter; the input names it (aria-controls).
		const listId = await input.getAttribute('aria-controls');
		if (!listId) throw new Error(`the ${name} parameter has no dropdown`);
		const names = await until(
			what,
			async () =>
				(await this.page.locator(`[id="${listId}"] li`).allInnerTexts()).map((t) => t.trim()),
			done,
		);
		await this.page.keyboard.press('Escape');
		return names;
	}

	// Resource locators (the searchable lists)

	private locator(name: string): Locator {
		return this.ndv.locator(testId(`resource-locator-${name}`));
	}

	/** Opens the list of a resource locator in list mode. */
	async openList(name: string): Promise<void> {
		await this.locator(name).locator(testId('rlc-input')).first().click();
	}

	async listRows(): Promise<string[]> {
		return (
			await this.page.locator(testId('rlc-item')).filter({ visible: true }).allInnerTexts()
		).map((t) => t.trim());
	}

	/** Types into the open list's search field (2.x marks the input itself, 1.x its wrapper). */
	async searchList(text: string): Promise<void> {
		await this.page
			.locator(`input${testId('rlc-search')}, ${testId('rlc-search')} input`)
			.filter({ visible: true })
			.first()
			.fill(text);
	}

	async pickRow(text: string): Promise<void> {
		await this.page
			.locator(testId('rlc-item'))
			.filter({ visible: true, hasText: text })
			.first()
			.click();
	}

	/** What the locator's field shows once a row is picked. */
	async locatorText(name: string): Promise<string> {
		return await this.locator(name)
			.locator(`input${testId('rlc-input')}, ${testId('rlc-input')} input`)
			.first()
			.inputValue();
	}

	// Running

	async executeStep(): Promise<void> {
		await this.ndv.locator(testId('node-execute-button')).first().click();
	}

	get output(): Locator {
		return this.ndv.locator(testId('output-panel'));
	}

	// Credentials

	/** Opens the credential the node uses, as the pencil beside it does. */
	async openNodeCredential(): Promise<Locator> {
		await this.ndv.locator(testId('credential-edit-button')).click();
		const dialog = this.page.locator(testId('credential-edit-dialog'));
		await dialog.waitFor();
		return dialog;
	}
}
