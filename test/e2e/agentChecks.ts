/**
 * VisionStory as tools of n8n's AI Agent, with no LLM: the agent example runs manually, its
 * OpenAI Chat Model credential pointed at a scripted OpenAI-compatible server on loopback that plays
 * the tool calls (list voices and avatars → synthesize speech → create a talking video → check its
 * status). Asserted: the tool schemas n8n sent, the tool results the "model" got back (readable JSON,
 * no binary, within the size bound), the emulator's ledger, and a cap stopping the fourth paid call.
 */
import { MAX_TOOL_RESULT_CHARS } from '../../packages/n8n-nodes-visionstory/nodes/shared/framework/toolResult';
import type { WorkflowJson } from '../../scripts/n8n/examples';
import type { LedgerEntry } from '../emulator';
import {
	AGENT_EXAMPLE,
	agentRun,
	answer,
	choose,
	createVideo,
	OPENAI_CREDENTIAL,
	playSteps,
	synthesize,
} from '../support/agentScript';
import {
	fieldIn,
	startScriptedOpenAi,
	toolResults,
	type ScriptedOpenAi,
} from '../support/scriptedOpenAi';
import type { SuiteContext } from './realN8n';

/** What n8n wraps around a tool's JSON before the model sees it (`[{"response":…}]`). */
const WRAPPER_CHARS = 200;

/** Every tool result a model got: JSON, no file bytes, within the bound. */
export function expectReadableResults(results: Array<{ name: string; content: string }>): void {
	for (const { name, content } of results) {
		expect({ name, chars: content.length }).toEqual({ name, chars: expect.any(Number) });
		expect(content.length).toBeLessThanOrEqual(MAX_TOOL_RESULT_CHARS + WRAPPER_CHARS);
		expect(() => JSON.parse(content)).not.toThrow();
		// Base64 file bytes would be long runs of these characters.
		expect(content).not.toMatch(/[A-Za-z0-9+/]{400,}/);
	}
}

function cappedCopy(example: WorkflowJson, budget: number): WorkflowJson {
	const copy = JSON.parse(JSON.stringify(example)) as WorkflowJson;
	copy.id = 'vsExampleAgentCap';
	copy.name = `${copy.name} (budget ${budget})`;
	for (const node of copy.nodes) {
		const options = node.parameters.options as Record<string, unknown> | undefined;
		if (options && 'maxCreditsPerExecution' in options) options.maxCreditsPerExecution = budget;
	}
	return copy;
}

export function describeAgentChecks(ctx: SuiteContext): void {
	describe('AI Agent with VisionStory tools (scripted OpenAI-compatible model)', () => {
		let model: ScriptedOpenAi;
		let capped: WorkflowJson;

		beforeAll(async () => {
			model = await startScriptedOpenAi();
			await ctx.session.instance.importCredentials([
				{
					...OPENAI_CREDENTIAL,
					type: 'openAiApi',
					data: { apiKey: 'sk-scripted-test', url: model.baseUrl },
				},
			]);
			capped = cappedCopy(ctx.session.examples[AGENT_EXAMPLE], 14);
			await ctx.session.instance.importWorkflows([capped]);
		}, 120_000);

		afterAll(async () => {
			await model?.stop();
		});

		const run = async (workflowId: string) => {
			const ledgerBefore = ctx.emulator.ledger().length;
			const requestsBefore = model.requests.length;
			const result = await ctx.session.instance.execute(workflowId);
			if (result.status !== 'success')
				throw new Error(
					`agent run ended "${result.status}": ${result.error ?? ''}\n${result.log.split('\n').slice(-40).join('\n')}`,
				);
			const requests = model.requests.slice(requestsBefore);
			return {
				result,
				requests,
				charges: ctx.emulator.ledger().slice(ledgerBefore) as LedgerEntry[],
				results: toolResults(requests.at(-1)!),
			};
		};

		test('the agent lists voices and avatars, synthesizes, creates a talking video and checks it; tools and results are what a model needs', async () => {
			model.script = agentRun();
			const { requests, charges, results } = await run(ctx.session.examples[AGENT_EXAMPLE].id);

			// The tool schemas n8n sent: our descriptions, the $fromAI parameters with their descriptions.
			const tools = Object.fromEntries(
				(requests[0].tools ?? []).map((t) => [t.function.name, t.function]),
			);
			expect(Object.keys(tools).sort()).toEqual([
				'check_video_status',
				'create_talking_video',
				'list_avatars',
				'list_voices',
				'synthesize_speech',
			]);
			expect(tools.synthesize_speech.description).toMatch(
				/Costs 2 credits per started 1,000 characters/,
			);
			expect(tools.create_talking_video.description).toMatch(
				/Returns at once with video_id.*Check Status/,
			);
			expect(tools.check_video_status.description).toMatch(/status \(queued, creating/);
			expect(tools.list_voices.description).toMatch(/voice_id/);
			expect(Object.keys(tools.synthesize_speech.parameters?.properties ?? {}).sort()).toEqual([
				'text',
				'voice_id',
			]);
			expect(tools.synthesize_speech.parameters?.properties?.voice_id.description).toMatch(
				/from list_voices/,
			);
			expect(Object.keys(tools.create_talking_video.parameters?.properties ?? {}).sort()).toEqual([
				'avatar_id',
				'script',
				'voice_id',
			]);
			expect(Object.keys(tools.check_video_status.parameters?.properties ?? {})).toEqual([
				'video_id',
			]);

			// The results the model got back.
			expect(results.map((r) => r.name)).toEqual([
				'list_voices',
				'list_avatars',
				'synthesize_speech',
				'create_talking_video',
				'check_video_status',
			]);
			expectReadableResults(results);
			const [, , speech, created, checked] = results.map((r) => r.content);
			expect(speech).toMatch(/"cost_credit":2/);
			expect(speech).toMatch(/"duration_sec":/);
			expect(speech).toMatch(/"creditsSpentInExecution":2/);
			expect(speech).toMatch(/"maxCreditsPerExecution":40/);
			const videoId = fieldIn(created, 'video_id')!;
			expect(created).toMatch(/"creditsSpentInExecution":12/);
			expect(checked).toContain(videoId);
			expect(checked).toMatch(/"status":"(queued|creating|created)"/);
			expect(checked).toMatch(/"creditsSpentInExecution":12/);

			// What the service charged: the voice-over and the video, nothing else.
			expect(charges.map((c) => [c.operation, c.kind, c.credits])).toEqual([
				['tts', 'charge', 2],
				['talking_video', 'charge', 10],
			]);
			expect(charges[1].refId).toBe(videoId);
		});

		test('with a budget of 14 credits the fourth paid call is refused before it is sent, and the model is told why', async () => {
			model.script = playSteps([choose, synthesize, createVideo, synthesize, synthesize, answer]);
			const ttsBefore = ctx.emulator.requests({
				origin: 'api',
				method: 'POST',
				path: '/api/v1/tts',
			}).length;
			const { charges, results } = await run(capped.id);
			expect(results.map((r) => r.name)).toEqual([
				'list_voices',
				'list_avatars',
				'synthesize_speech',
				'create_talking_video',
				'synthesize_speech',
				'synthesize_speech',
			]);
			expectReadableResults(results);
			const refused = results[5].content;
			expect(refused).toMatch(
				/Max Credits per Execution \(14\) would be passed: this execution has spent 14 credits\. It would cost about 2 credits\. Nothing was sent or charged/,
			);
			expect(results[4].content).toMatch(/"creditsSpentInExecution":14/);
			expect(
				ctx.emulator.requests({ origin: 'api', method: 'POST', path: '/api/v1/tts' }).length -
					ttsBefore,
			).toBe(2);
			expect(charges.map((c) => [c.operation, c.credits])).toEqual([
				['tts', 2],
				['talking_video', 10],
				['tts', 2],
			]);
		});
	});
}
