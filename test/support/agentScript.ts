/**
 * The agent example's model part, played without an LLM: the turns a model would take (list voices
 * and avatars → synthesize speech → create a talking video → check its status → answer), each built
 * from the tool results so far. The real-n8n suite asserts on it; the demo runs the example with it.
 */
import { fieldIn, toolResults, type ChatRequest, type Reply } from './scriptedOpenAi';

export const AGENT_EXAMPLE = 'agent-brief-to-voice-over-and-video';
/** The OpenAI credential the agent example names, imported here with the scripted server as its Base URL. */
export const OPENAI_CREDENTIAL = { id: 'openAiExample01', name: 'OpenAI account' };
const SCRIPT =
	'Meet the AirStep Lite: thirty percent lighter, a recycled knit upper, made for your morning miles. In stores March first.';

/** One turn of a scripted agent: how many tool calls it makes (0: the final answer) and what they are, given the results so far. */
export interface Step {
	calls: number;
	reply: (results: Array<{ name: string; content: string }>) => Reply;
}

/**
 * Plays the steps in order. Where it is is read from the tool results the conversation holds (n8n
 * may split one turn's parallel calls into separate messages, so turns are not counted).
 */
export function playSteps(steps: Step[]): (request: ChatRequest) => Reply {
	return (request) => {
		const results = toolResults(request);
		let done = 0;
		for (const step of steps) {
			if (done === results.length || step.calls === 0) return step.reply(results);
			done += step.calls;
		}
		return { content: 'Out of script.' };
	};
}

const pick = (results: Array<{ name: string; content: string }>, name: string, field: string) => {
	const value = [...results].reverse().find((r) => r.name === name);
	const found = value ? fieldIn(value.content, field) : undefined;
	if (!found)
		throw new Error(
			`no ${field} in the ${name} result: ${value?.content.slice(0, 300) ?? 'not called'}`,
		);
	return found;
};

export const choose: Step = {
	calls: 2,
	reply: () => ({
		toolCalls: [
			{ name: 'list_voices', args: {} },
			{ name: 'list_avatars', args: {} },
		],
	}),
};
export const synthesize: Step = {
	calls: 1,
	reply: (r) => ({
		toolCalls: [
			{
				name: 'synthesize_speech',
				args: { text: SCRIPT, voice_id: pick(r, 'list_voices', 'voice_id') },
			},
		],
	}),
};
export const createVideo: Step = {
	calls: 1,
	reply: (r) => ({
		toolCalls: [
			{
				name: 'create_talking_video',
				args: {
					avatar_id: pick(r, 'list_avatars', 'avatar_id'),
					script: SCRIPT,
					voice_id: pick(r, 'list_voices', 'voice_id'),
				},
			},
		],
	}),
};
export const checkStatus: Step = {
	calls: 1,
	reply: (r) => ({
		toolCalls: [
			{
				name: 'check_video_status',
				args: { video_id: pick(r, 'create_talking_video', 'video_id') },
			},
		],
	}),
};
export const answer: Step = {
	calls: 0,
	reply: (r) => ({ content: `Done: ${r.map((x) => x.name).join(', ')}` }),
};

/** The whole run the example is written for, as the demo plays it. */
export const agentRun = (): ((request: ChatRequest) => Reply) =>
	playSteps([choose, synthesize, createVideo, checkStatus, answer]);
