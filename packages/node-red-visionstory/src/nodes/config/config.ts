/**
 * The config node: the API key (a credential, stored encrypted by Node-RED), the Base URL, the spend
 * limits (a cap per message, a floor under the account's balance) and the request rate; it makes each message's client, and serves the editor's
 * pickers (avatars, voices, models) through an admin endpoint.
 */
import type { Node, NodeAPI, NodeDef } from 'node-red';

import type { FieldIssue, RequestBudget } from '../../api';
import {
	LedgerBook,
	apiKeyOf,
	pickerAnswer,
	pickerPages,
	SpendLedger,
	Exchange,
	SpendingClient,
	VisionStoryClient,
	VisionStoryError,
	balanceFloor,
	baseUrlOf,
	baseUrlProblem,
	budgetFor,
} from '../../api';
import { NodeHttpChannel } from '../../channel';
import { describe } from '../../errors';
import { KEEP_AT_LEAST_FIELD, MAX_CREDITS_FIELD, limitsProblem, readLimit } from '../../limits';
import type { PickerList } from '../../field';
import { PICKER_LISTS } from '../../field';
import { textsOf } from '../../texts';

export interface ConfigProps extends NodeDef {
	baseUrl?: string;
	maxCreditsPerMessage?: string | number;
	keepAtLeastCredits?: string | number;
	requestsPerSecond?: string | number;
}

export interface ConfigNode extends Node<{ apiKey?: string }> {
	baseUrl: string;
	cap?: number;
	/** Keep at Least N Credits: the balance no charged call may take the account below. */
	keepAtLeast?: number;
	perSecond?: number;
	/** A spend limit that is not a whole number: every message is refused, naming it. */
	limitsProblem?: VisionStoryError;
	/** A client for one message: its spend ledger is the message's (by _msgid), across every node it passes. */
	clientFor(msgId: string | undefined): { client: SpendingClient; budget: RequestBudget };
	/** The plain client, for free reads outside any message (the editor's pickers). */
	apiClient(): VisionStoryClient;
	secrets(): string[];
}

/** Enough entries for a dropdown without paging, read in a few pages of the service's. */
const PICKER_ROWS = { rows: 500, pages: 5 };

/** One ledger per message id and config node: a message's whole journey through the flow shares one cap. */
const ledgers = new LedgerBook(10_000);

/** Waiting uses a plain timer (Node-RED nodes may); the exchange ends it early on close. */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function wholeOrUndefined(value: unknown): number | undefined {
	const n = Number(value);
	return value === '' || value === undefined || !Number.isFinite(n) || n <= 0
		? undefined
		: Math.floor(n);
}

/** Why the config cannot be used, before anything is sent (a missing key, http:// off this machine). */
export function configProblem(config: ConfigNode | undefined): VisionStoryError | undefined {
	const problem = (message: string, hint: string) =>
		new VisionStoryError({ category: 'validation', message, hint });
	if (!config)
		return problem(
			'No VisionStory config node is selected',
			'Open the node, choose or add a VisionStory config (API key and Base URL), and deploy. Nothing was sent.',
		);
	if (config.limitsProblem) return config.limitsProblem;
	if (!apiKeyOf(config.credentials?.apiKey))
		return problem(
			`The VisionStory config "${config.name || config.id}" has no API key`,
			'Enter the key (it starts with sk-vs-) in the config node and deploy. Nothing was sent.',
		);
	return baseUrlProblem(config.baseUrl, `of the VisionStory config "${config.name || config.id}"`);
}

/** A picker's entries from the core's lists (named as n8n's pickers name them), as the editor's options. */
async function pickerOptions(
	client: VisionStoryClient,
	list: PickerList,
): Promise<Array<{ value: string; label: string }>> {
	const { entries } = await pickerAnswer(
		async (token) => await pickerPages[list](client, token),
		undefined,
		PICKER_ROWS,
	);
	return entries.map((entry) => ({ value: entry.value, label: entry.name }));
}

export function registerConfig(RED: NodeAPI): void {
	const texts = textsOf(RED);
	function VisionStoryConfig(this: ConfigNode, props: ConfigProps) {
		RED.nodes.createNode(this, props);
		this.name = props.name;
		this.baseUrl = baseUrlOf(props.baseUrl);
		const label = props.name || this.id;
		const issues: FieldIssue[] = [];
		this.cap = readLimit(props.maxCreditsPerMessage, MAX_CREDITS_FIELD, issues, label);
		this.keepAtLeast = readLimit(props.keepAtLeastCredits, KEEP_AT_LEAST_FIELD, issues, label);
		this.limitsProblem = limitsProblem(issues);
		// Said once when deployed, too: the messages refused later say it again, each to its Catch node.
		if (this.limitsProblem)
			this.error(texts('log.limitsRefused', { message: this.limitsProblem.message }));
		this.perSecond = wholeOrUndefined(props.requestsPerSecond);
		const capSource = `Max credits per message in the VisionStory config "${label}"`;
		// The key as the service reads it (trimmed): sent, scrubbed and naming the account so.
		const apiKey = () => apiKeyOf(this.credentials?.apiKey);
		this.secrets = () => [apiKey()].filter(Boolean);
		this.apiClient = () => {
			const key = apiKey();
			return new VisionStoryClient(
				new Exchange(new NodeHttpChannel(key), {
					baseUrl: this.baseUrl,
					sleep,
					secrets: [key],
				}),
			);
		};
		this.clientFor = (msgId) => {
			const key = apiKey();
			const ledger = msgId ? ledgers.ledger(`${this.id}:${msgId}`) : new SpendLedger();
			return {
				client: new SpendingClient(this.apiClient(), ledger, {
					cap: this.cap,
					capSource,
					floor: balanceFloor(
						this.baseUrl,
						key,
						this.keepAtLeast,
						`in the VisionStory config "${label}"`,
					),
				}),
				budget: budgetFor(this.baseUrl, key, this.perSecond),
			};
		};
	}
	RED.nodes.registerType<ConfigNode, ConfigProps, never, { apiKey?: string }>(
		'visionstory-config',
		VisionStoryConfig,
		{
			credentials: { apiKey: { type: 'password' } },
		},
	);

	// The editor's pickers: read through the deployed config node, so the key never reaches the browser.
	RED.httpAdmin.get(
		'/visionstory/:config/:list',
		RED.auth.needsPermission('visionstory-config.read'),
		(req, res) => {
			const list = String(req.params.list) as PickerList;
			const config = RED.nodes.getNode(String(req.params.config)) as ConfigNode | undefined;
			if (!PICKER_LISTS.includes(list)) {
				res.status(404).json({ message: `No list "${list}"` });
				return;
			}
			const problem = configProblem(config);
			if (problem) {
				res.status(400).json({
					message: config
						? problem.message
						: 'Deploy the VisionStory config node first, then open this list again.',
				});
				return;
			}
			pickerOptions(config!.apiClient(), list).then(
				(options) => res.json(options),
				(error: unknown) => res.status(502).json(describe(error, config!.secrets())),
			);
		},
	);
}
