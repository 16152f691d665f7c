/**
 * The VisionStory tools served by n8n's MCP Server Trigger (the MCP example, activated) to the
 * official MCP TypeScript SDK client over streamable HTTP: the tools it lists with their schemas,
 * calls of each, what they return and what the emulator charged.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { MAX_TOOL_RESULT_CHARS } from '../../packages/n8n-nodes-visionstory/nodes/shared/framework/toolResult';
import { suiteFetch } from '../../scripts/suiteHttp';
import { fieldIn } from '../support/scriptedOpenAi';
import type { SuiteContext } from './realN8n';

// The MCP client's HTTP to n8n goes through the suite's (a connection per call, see scripts/suiteHttp.ts).
const mcpFetch = ((input: string | URL, init?: RequestInit) =>
	suiteFetch(input, init as object)) as unknown as typeof fetch;

export const MCP_EXAMPLE = 'mcp-server-visionstory-tools';
const SCRIPT = 'Meet the AirStep Lite, thirty percent lighter and made for your morning miles.';

/** The text a tool call returned (n8n answers with one text part). */
function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
	const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
	return content
		.map((part) => (part.type === 'text' ? (part.text ?? '') : `<${part.type}>`))
		.join('');
}

/** `pass` names a second run (e.g. under drift): its script differs, so its create is a new video rather than the first run's, returned uncharged. */
export function describeMcpChecks(ctx: SuiteContext, pass = ''): void {
	const script = pass ? `${SCRIPT} (${pass})` : SCRIPT;
	describe('MCP Server Trigger serving the VisionStory tools to the MCP SDK client', () => {
		let client: Client;

		beforeAll(async () => {
			const workflow = ctx.session.examples[MCP_EXAMPLE];
			expect(await ctx.rest.activate(workflow.id)).toMatchObject({ active: true });
			const trigger = workflow.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.mcpTrigger')!;
			const url = new URL(`${ctx.session.instance.baseUrl}/mcp/${String(trigger.parameters.path)}`);
			client = new Client({ name: 'visionstory-e2e', version: '1.0.0' });
			// 2.x answers 404 for a moment after activation while the webhook registers.
			for (let attempt = 0; ; attempt++) {
				try {
					await client.connect(new StreamableHTTPClientTransport(url, { fetch: mcpFetch }));
					break;
				} catch (error) {
					if (attempt >= 20) throw error;
					client = new Client({ name: 'visionstory-e2e', version: '1.0.0' });
					await new Promise((r) => setTimeout(r, 250));
				}
			}
		}, 60_000);

		afterAll(async () => {
			await client?.close();
		});

		const call = async (name: string, args: Record<string, unknown>) => {
			const result = await client.callTool({ name, arguments: args });
			const text = textOf(result);
			const isError = result.isError === true;
			// What a model would get: JSON (a failure: its message and hint), no file bytes, within the bound.
			expect(text.length).toBeLessThanOrEqual(MAX_TOOL_RESULT_CHARS + 200);
			expect(text).not.toMatch(/[A-Za-z0-9+/]{400,}/);
			if (!isError) expect(() => JSON.parse(text)).not.toThrow();
			return { text, isError };
		};

		test("the app has n8n's AI nodes (AI Agent, OpenAI Chat Model, MCP Server Trigger) and the tool variant of the VisionStory node", async () => {
			const types = new Set((await ctx.rest.types('nodes')).map((t) => t.name));
			for (const name of [
				'@n8n/n8n-nodes-langchain.agent',
				'@n8n/n8n-nodes-langchain.lmChatOpenAi',
				'@n8n/n8n-nodes-langchain.mcpTrigger',
			])
				expect(types).toContain(name);
			expect(types).toContain('n8n-nodes-visionstory.visionStoryTool');
		});

		test('lists the five tools with their descriptions and the parameters the model fills', async () => {
			const { tools } = await client.listTools();
			const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
			expect(Object.keys(byName).sort()).toEqual([
				'check_video_status',
				'create_talking_video',
				'list_avatars',
				'list_voices',
				'synthesize_speech',
			]);
			expect(byName.synthesize_speech.description).toMatch(
				/Costs 2 credits per started 1,000 characters/,
			);
			expect(byName.create_talking_video.description).toMatch(/Returns at once with video_id/);
			const properties = (name: string) =>
				Object.keys((byName[name].inputSchema.properties ?? {}) as object).sort();
			expect(properties('synthesize_speech')).toEqual(['text', 'voice_id']);
			expect(properties('create_talking_video')).toEqual(['avatar_id', 'script', 'voice_id']);
			expect(properties('check_video_status')).toEqual(['video_id']);
			expect(
				(
					byName.synthesize_speech.inputSchema.properties as Record<
						string,
						{ description?: string }
					>
				).text.description,
			).toMatch(/voice-over script/);
		});

		test('calls them in order: voices and avatars, speech, a talking video and its status; the ledger holds the two charges', async () => {
			const ledgerBefore = ctx.emulator.ledger().length;
			const voices = await call('list_voices', {});
			const avatars = await call('list_avatars', {});
			const voiceId = fieldIn(voices.text, 'voice_id')!;
			const avatarId = fieldIn(avatars.text, 'avatar_id')!;
			expect(voiceId).toBeTruthy();
			expect(avatarId).toBeTruthy();

			const speech = await call('synthesize_speech', { text: script, voice_id: voiceId });
			expect(speech.isError).toBe(false);
			expect(speech.text).toMatch(/"cost_credit":2/);
			expect(speech.text).toMatch(/"maxCreditsPerExecution":40/);

			const created = await call('create_talking_video', {
				avatar_id: avatarId,
				script,
				voice_id: voiceId,
			});
			const videoId = fieldIn(created.text, 'video_id')!;
			expect(videoId).toMatch(/^vid_/);
			const checked = await call('check_video_status', { video_id: videoId });
			expect(checked.text).toContain(videoId);
			expect(checked.text).toMatch(/"status":"(queued|creating|created)"/);

			// Outside an execution a create is keyed by its parameters: a client resending the same call
			// (a retry after a lost answer) gets the same video back, uncharged.
			const again = await call('create_talking_video', {
				avatar_id: avatarId,
				script,
				voice_id: voiceId,
			});
			expect(fieldIn(again.text, 'video_id')).toBe(videoId);

			expect(
				ctx.emulator
					.ledger()
					.slice(ledgerBefore)
					.map((c) => [c.operation, c.kind, c.credits]),
			).toEqual([
				['tts', 'charge', 2],
				['talking_video', 'charge', 10],
			]);
		});

		test('n8n runs each MCP tool call in its webhook, outside any execution: spend and cap start afresh at every call', async () => {
			const first = await call('synthesize_speech', { text: SCRIPT, voice_id: 'en-US-AvaNeural' });
			const second = await call('synthesize_speech', { text: SCRIPT, voice_id: 'en-US-AvaNeural' });
			expect(first.text).toMatch(/"creditsSpentInExecution":2,/);
			expect(second.text).toMatch(/"creditsSpentInExecution":2,/);
		});

		test('a refused call tells the client why, and nothing is charged', async () => {
			const ledgerBefore = ctx.emulator.ledger().length;
			// 24,000 characters cost 48 credits: past the tool's 40, refused before anything is sent.
			const long = 'A sentence of a long voice-over script for the spring launch. '.repeat(390);
			const refused = await call('synthesize_speech', { text: long, voice_id: 'en-US-AvaNeural' });
			// n8n marks an MCP result as an error only when the tool throws: the node throws for MCP callers.
			expect(refused.isError).toBe(true);
			expect(refused.text).toMatch(
				/Max Credits per Execution \(40\) would be passed[\s\S]*Nothing was sent or charged/,
			);
			expect(ctx.emulator.ledger().slice(ledgerBefore)).toEqual([]);
		});

		test("a failed call comes back as an error (isError) with the service's message and the hint", async () => {
			const failed = await call('check_video_status', { video_id: 'vid_doesnotexist' });
			expect(failed.isError).toBe(true);
			expect(failed.text).toMatch(/vid_doesnotexist[\s\S]*Details: .+/);
			const found = await call('list_voices', {});
			expect(found.isError).toBe(false);
		});
	});
}
