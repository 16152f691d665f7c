/**
 * `npm run mutants`: puts each defect of issue 25 (and those of issues 31 and 38) back into the source, one small named patch at a
 * time, and runs the tests meant to find it at their default run counts. Issue 25's acceptance line:
 * "the property tests run in `npm test` with enough runs to find each defect above when it is put
 * back". Each patch is an exact text replacement in one file, found exactly once (a patch whose text
 * is gone fails loudly instead of silently testing nothing); the file is restored from the content
 * read before, whatever happens (a failure, Ctrl-C, SIGTERM). Defects of a message or an output's
 * shape have no property to find them: their patch runs the example tests (test/money/defects.test.ts,
 * the trigger's example suite) to show they are caught there.
 *
 *   npm run mutants                    every patch, once; exit 1 when one survives
 *   npm run mutants -- 1a 7 14 31-6    only these patches (or every patch of a defect)
 *   npm run mutants -- --repeat=5      each patch's tests 5 times (fast-check draws new cases each
 *                                      time): how sure the catch is, and the most runs it needed
 *
 * Results and a recorded run: docs/mutants.md.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

import { REPO_ROOT } from './paths';

export interface Edit {
	find: string;
	replace: string;
}

export interface Mutant {
	/** The defect's number in its issue and a letter: '1a' (issue 25), 'i31.1a' (issue 31), 'i38.3a' (issue 38). */
	id: string;
	/** The issue whose defect it puts back. */
	issue: 25 | 31 | 38;
	defect: number;
	/** What the patch does, as the defect it puts back. */
	name: string;
	/** Relative to the repository root. */
	file: string;
	edits: Edit[];
	/** Test files (relative to the root) that are meant to catch it. */
	tests: string[];
	/** A property test finds it, or (message and shape defects) an example test. */
	by: 'property' | 'example';
}

const API = 'packages/n8n-nodes-visionstory/nodes/shared/api';
const FRAMEWORK = 'packages/n8n-nodes-visionstory/nodes/shared/framework';
/** The watcher, in the core since issue 32: the trigger's patches of issue 25 moved here with it. */
const WATCH = `${API}/watch`;
const MONEY_PROPERTIES = 'test/money/properties.test.ts';
const TRIGGER_PROPERTIES = 'test/engine/triggerProperty.test.ts';
const DEFECTS = 'test/money/defects.test.ts';
const TRIGGER_EXAMPLES = 'test/engine/trigger.test.ts';
const TRIGGER_ISSUE_31 = 'test/engine/triggerIssue31.test.ts';

const ISSUE_31 = 'test/money/issue31.test.ts';
const PRICE_OF_ZERO = 'test/engine/priceOfZero.test.ts';
const PRICE_OF_ZERO_NODE_RED = 'test/node-red/priceOfZero.test.ts';
const KEY_TRIMMED = 'test/money/keyTrimmed.test.ts';
const SHARED_BOOK = 'test/node-red/sharedBook.test.ts';
const ACCOUNT = 'test/engine/account.test.ts';
const INSTANT_RETRY = 'test/engine/instantRetry.test.ts';
const INSTANT_CALLS = 'test/unit/instantCalls.test.ts';
const WORD_TIMINGS = 'test/engine/wordTimings.test.ts';
const OUTPUT_FILES = 'test/unit/outputFiles.test.ts';
const ISSUE_38 = 'test/money/issue38.test.ts';
const LONG_SPEECH = 'test/engine/longSpeech.test.ts';
const WAIT = 'test/client/wait.test.ts';
/** Patches of later issues are named `i<issue>.<defect><letter>` (`i31.2a`); issue 25's have no prefix. */
const ISSUE = /^i(31|38)\./;

const mutant = (m: Omit<Mutant, 'issue' | 'defect'>): Mutant => ({
	...m,
	issue: Number(ISSUE.exec(m.id)?.[1] ?? 25) as Mutant['issue'],
	defect: Number.parseInt(m.id.replace(ISSUE, ''), 10),
});
const property = (m: Omit<Mutant, 'by' | 'issue' | 'defect'>): Mutant =>
	mutant({ ...m, by: 'property' });
const example = (m: Omit<Mutant, 'by' | 'issue' | 'defect'>): Mutant =>
	mutant({ ...m, by: 'example' });

/** How a defect is named on the command line: '7' (issue 25), 'i31.2' (issue 31), 'i38.3' (issue 38). */
export function defectName(m: Mutant): string {
	return m.issue === 25 ? String(m.defect) : `i${m.issue}.${m.defect}`;
}

/** One patch (or more) per defect of issues 25 and 31, and per defect of issue 38 fixed so far; each undoes what its fix does. */
export const MUTANTS: Mutant[] = [
	property({
		id: '1a',
		name: 'a charge of unknown price is noted as 0 (a video whose read failed, or shows no cost yet, counts 0)',
		file: `${API}/spend.ts`,
		edits: [
			{
				find: 'this.charges.set(key, { endpoint, quoted, credits: quoted });',
				replace: 'this.charges.set(key, { endpoint, quoted, credits: quoted ?? 0 });',
			},
		],
		tests: [MONEY_PROPERTIES],
	}),
	property({
		id: '1b',
		name: "a status read replaces the noted charge: a queued task's cost_credit 0 lowers it to 0",
		file: `${API}/spend.ts`,
		edits: [
			{
				find: [
					'\t\tconst cost = knownPrice(task.cost_credit);',
					'\t\tif (cost === undefined) return;',
					"\t\tcharge.credits = task.status === 'created' ? cost : Math.max(cost, charge.quoted ?? 0);",
				].join('\n'),
				replace:
					"\t\tconst cost = task.cost_credit;\n\t\tif (typeof cost !== 'number') return;\n\t\tcharge.credits = cost;",
			},
		],
		tests: [MONEY_PROPERTIES],
	}),
	property({
		id: '1c',
		name: 'a create whose answer was lost is not counted when its resend is refused (429): the charge made by the lost attempt is missed',
		file: `${API}/spendingClient.ts`,
		edits: [{ find: '\t\t\terror.mayHaveSucceeded === true ||\n', replace: '' }],
		tests: [MONEY_PROPERTIES],
	}),
	property({
		id: '2a',
		name: 'a charged 2xx answer that cannot be read (an image without url) is not counted',
		file: `${API}/spendingClient.ts`,
		edits: [
			{
				find: "\t\t(error.category === 'response' ||\n\t\t\terror.mayHaveSucceeded",
				replace: '\t\t(error.mayHaveSucceeded',
			},
		],
		tests: [MONEY_PROPERTIES],
	}),
	property({
		id: '2b',
		name: "an answer's cost_credit 0 (the contract's default) is taken as the price",
		file: `${API}/spend.ts`,
		edits: [
			{
				find: 'const price = knownPrice(credits);',
				replace: "const price = typeof credits === 'number' ? credits : undefined;",
			},
		],
		tests: [MONEY_PROPERTIES],
	}),
	example({
		id: '2c',
		name: 'items do not say how many charges are of unknown price (they read creditsSpentInExecution 0)',
		file: `${FRAMEWORK}/spend.ts`,
		edits: [{ find: '...(unknown > 0', replace: '...(unknown < 0' }],
		tests: [DEFECTS],
	}),
	example({
		id: '3',
		name: 'with a cap, an image model list that cannot be read fails the call instead of leaving its price unknown',
		file: `${API}/spendingClient.ts`,
		edits: [
			{
				find: [
					'\t\t\tunlessAborted(error);',
					"\t\t\tif (name === 'generateImage') this.imageModels = undefined;",
					'\t\t\treturn undefined;',
				].join('\n'),
				replace:
					"\t\t\tif (name === 'generateImage') this.imageModels = undefined;\n\t\t\tthrow error;",
			},
		],
		tests: [DEFECTS],
	}),
	property({
		id: '4a',
		name: 'Keep at Least N Credits: calls under way in the process are not held against the balance',
		file: `${API}/balance.ts`,
		edits: [
			{
				find: 'let total = this.reserved - own;',
				replace: 'let total = 0;',
			},
		],
		tests: [MONEY_PROPERTIES],
	}),
	property({
		id: '4b',
		name: 'Keep at Least N Credits is not checked: only the per-execution cap bounds spending',
		file: `${API}/spendingClient.ts`,
		edits: [
			{
				find: 'const floor = await this.policy.floor?.admit(',
				replace: "const floor = await (undefined as SpendPolicy['floor'])?.admit(",
			},
		],
		tests: [MONEY_PROPERTIES],
	}),
	property({
		id: '4c',
		name: 'Keep at Least N Credits: a call of unknown price neither waits for the calls under way nor holds the next ones',
		file: `${API}/balance.ts`,
		edits: [
			{
				find: '\t\t\twhile (credits === undefined && this.underWay > 0) await this.idle();\n',
				replace: '',
			},
			{ find: 'holding = credits === undefined;', replace: 'holding = false;' },
		],
		tests: [MONEY_PROPERTIES],
	}),
	property({
		id: '5a',
		name: "a new attempt's key suffix dropped: a failed or deleted task's key is sent again",
		file: `${API}/idempotency.ts`,
		edits: [
			{
				find: 'return attempt === 0 ? key : `${key.slice(0, 120)}.a${attempt}`;',
				replace: 'return attempt === 0 ? key : key;',
			},
		],
		tests: [MONEY_PROPERTIES],
	}),
	property({
		id: '5b',
		name: "a failed task in a create's answer is handed back as the item's video",
		file: `${API}/taskCreate.ts`,
		edits: [
			{
				find: "if (read === 'gone' || RULES.failed(attempt)) {",
				replace: "if (read === 'gone') {",
			},
		],
		tests: [MONEY_PROPERTIES],
	}),
	property({
		id: '5c',
		name: "a deleted task in a create's answer is handed back as the item's video",
		file: `${API}/taskCreate.ts`,
		edits: [
			{
				find: "if (RULES.gone(attempt, options.pollIntervalMs)) return 'gone';",
				replace: "if (RULES.gone(attempt, options.pollIntervalMs)) return 'unseen';",
			},
		],
		tests: [MONEY_PROPERTIES],
	}),
	property({
		id: '6',
		name: 'an attempt that may have reached the service is forgotten when the item fails later (rate limits): no key, "not submitted"',
		file: `${API}/taskRun.ts`,
		edits: [
			{
				find: 'if (failure.mayHaveReachedService) this.reached.set(index, failure.idempotencyKey);',
				replace: '',
			},
		],
		tests: [MONEY_PROPERTIES],
	}),
	property({
		id: '7',
		name: 'a plain 429 whose details carry `limit` is taken for the AI-video concurrency cap',
		file: `${API}/errorBody.ts`,
		edits: [
			{
				find: "if (!('in_flight' in details)) return undefined;",
				replace: "if (!('in_flight' in details) && !('limit' in details)) return undefined;",
			},
		],
		tests: [MONEY_PROPERTIES],
	}),
	example({
		id: '8a',
		name: 'a bare 409 on a charged call gets the generic hint ("the original task will be returned")',
		file: `${API}/errorBody.ts`,
		edits: [
			{
				find: [
					'\tif (status === 409 && options.replayable === false)',
					'\t\treturn `VisionStory reported a conflict with another request. ${CHARGED_WARNING}`;\n',
				].join('\n'),
				replace: '',
			},
		],
		tests: [DEFECTS],
	}),
	example({
		id: '8b',
		name: "the service's own hint replaces the warning that the call may have been charged",
		file: `${API}/errorBody.ts`,
		edits: [
			{
				find: [
					'\tconst hint =',
					'\t\tenvelope.hint !== undefined && mayHaveCharged(status, options)',
					"\t\t\t? `${envelope.hint.replace(/\\.?\\s*$/, '.')} ${CHARGED_WARNING}`",
					'\t\t\t: (envelope.hint ?? ours);',
				].join('\n'),
				replace: '\tconst hint = envelope.hint ?? ours;',
			},
		],
		tests: [DEFECTS],
	}),
	example({
		id: '9a',
		name: 'a video reported created with an empty video_url is taken as finished at once (node)',
		file: `${API}/taskRun.ts`,
		edits: [
			{
				find: "const linkless = task?.status === 'created' && !task.video_url;",
				replace: 'const linkless = false;',
			},
		],
		tests: [DEFECTS],
	}),
	example({
		id: '9b',
		name: 'a video reported created with an empty video_url is emitted at once (trigger)',
		file: `${WATCH}/poller.ts`,
		edits: [
			{
				find: [
					'\t\tconst waitsForLink =',
					'\t\t\t!isComplete(task) && statuses.has(task.status) && !emitted.has(id) && !ready.has(id);',
				].join('\n'),
				replace: '\t\tconst waitsForLink = false;',
			},
		],
		tests: [TRIGGER_EXAMPLES],
	}),
	example({
		id: '10',
		name: 'Text to Speech takes any 200 body as the MP3 (no content type or audio check)',
		file: `${API}/audioBody.ts`,
		edits: [
			{
				find: 'if (!audioType(contentType)) {',
				replace: 'if (!audioType(contentType) && head.length < 0) {',
			},
			{
				find: 'if (!looksLikeAudio(head)) {',
				replace: 'if (!looksLikeAudio(head) && head.length < 0) {',
			},
		],
		tests: [DEFECTS],
	}),
	example({
		id: '11a',
		name: "a video's result does not say its price comes after rendering",
		file: `${FRAMEWORK}/spend.ts`,
		edits: [
			{
				find: "...(task.status !== 'failed' && !priced",
				replace: "...(task.status !== 'failed' && !priced && false",
			},
		],
		tests: [DEFECTS],
	}),
	example({
		id: '11b',
		name: 'a video returned for a repeated identical call is not marked as returned rather than made',
		file: `${FRAMEWORK}/spend.ts`,
		edits: [{ find: '...(result.existing', replace: '...(result.existing && false' }],
		tests: [DEFECTS],
	}),
	example({
		id: '12a',
		name: "an image without a resolution is priced at credit_per_image, not the model's default tier",
		file: `${API}/spendingClient.ts`,
		edits: [{ find: ': model.params?.resolution?.default;', replace: ': undefined;' }],
		tests: [DEFECTS],
	}),
	example({
		id: '12b',
		name: "Align's price (1 credit per started 5 minutes) is not used: Validate Only says null",
		file: `${API}/spendingClient.ts`,
		edits: [
			{
				find: "\tif (name === 'alignAudio' && options?.audioSec !== undefined) return alignPrice(options.audioSec);\n",
				replace: '',
			},
		],
		tests: [DEFECTS],
	}),
	example({
		id: '12c',
		name: 'Voice Clone is not under the cap',
		file: `${API}/spend.ts`,
		edits: [{ find: "\t'cloneVoice',\n", replace: '' }],
		tests: [DEFECTS],
	}),
	property({
		id: '13a',
		name: "trigger: a list that cannot be used (404, no list) fails the kind's poll; no fallback to reading known tasks by id",
		file: `${WATCH}/poller.ts`,
		edits: [
			{
				find: "if ('error' in listed && !(listed.error instanceof UnusableList)) throw listed.error;",
				replace: "if ('error' in listed) throw listed.error;",
			},
		],
		tests: [TRIGGER_PROPERTIES],
	}),
	property({
		id: '13b',
		name: 'trigger: list entries without a status are not read by id',
		file: `${WATCH}/poller.ts`,
		edits: [
			{
				find: 'const unread = walked.taken.filter((task) => !hasStatus(task) && !emitted.has(task.video_id));',
				replace: 'const unread: Listed[] = [];',
			},
		],
		tests: [TRIGGER_PROPERTIES],
	}),
	property({
		id: '13c',
		name: 'trigger: one kind failing fails the whole poll (kinds not watched on their own)',
		file: `${WATCH}/round.ts`,
		edits: [
			{
				find: 'if (failures.length === kinds.length) throw failures[0];',
				replace: 'if (failures.length > 0) throw failures[0];',
			},
		],
		tests: [TRIGGER_PROPERTIES],
	}),
	property({
		id: '13d',
		name: 'trigger: a list that turns unusable within a poll (a 404 after the walk, while reading watched tasks) fails every kind of the poll',
		file: `${WATCH}/poller.ts`,
		edits: [
			{
				find: "\t\tif ('error' in listed && listed.error instanceof UnusableList) break;\n",
				replace: '',
			},
		],
		tests: [TRIGGER_PROPERTIES],
	}),
	property({
		id: '14a',
		name: 'trigger: the overlap window below the newest created_at set to 0',
		file: `${WATCH}/cursor.ts`,
		edits: [{ find: 'overlapSeconds: 120,', replace: 'overlapSeconds: 0,' }],
		tests: [TRIGGER_PROPERTIES],
	}),
	property({
		id: '14b',
		name: "trigger: a walk stops at the first task below the window's start instead of one window further",
		file: `${WATCH}/cursor.ts`,
		edits: [
			{
				find: "return at < from - LIMITS.overlapSeconds ? 'stop' : 'skip';",
				replace: "return 'stop';",
			},
		],
		tests: [TRIGGER_PROPERTIES],
	}),
	property({
		id: '14c',
		name: 'trigger: the list of emitted ids does not remove duplicates met again in the window',
		file: `${WATCH}/poller.ts`,
		edits: [
			{
				find: 'else if (emitted.has(id) || ready.has(id)) return;',
				replace: 'else if (ready.has(id)) return;',
			},
		],
		tests: [TRIGGER_PROPERTIES],
	}),
	property({
		id: 'i31.1a',
		name: 'a task the service confirmed and no read has shown yet is taken as gone: a new attempt, a second paid video',
		file: `${API}/taskCreate.ts`,
		edits: [
			{
				find: "if (RULES.notVisibleYet(attempt)) return 'unseen';",
				replace: "if (RULES.notVisibleYet(attempt)) return 'gone';",
			},
		],
		tests: [MONEY_PROPERTIES, ISSUE_31],
	}),
	example({
		id: 'i31.1b',
		name: 'a wait counts missed reads of a task no read has shown yet: after 3 the item fails, its paid video orphaned',
		file: `${API}/taskRun.ts`,
		edits: [
			{
				find: '\t\t\t\t: RULES.settled(attempt, pollIntervalMs);',
				replace:
					"\t\t\t\t: attempt.absences.length >= 3\n\t\t\t\t\t? 'gone'\n\t\t\t\t\t: RULES.settled(attempt, pollIntervalMs);",
			},
		],
		tests: [ISSUE_31],
	}),
	property({
		id: 'i31.2a',
		name: "Keep at Least N Credits is skipped on a resend: a recorded key, and the exchange's own retries, go unchecked",
		file: `${API}/spendingClient.ts`,
		edits: [
			{
				find: 'const floor = await this.policy.floor?.admit(',
				replace: 'const floor = await (replay ? undefined : this.policy.floor)?.admit(',
			},
			{
				find: 'send({ ...options, beforeResend: admitted.recheck })',
				replace: 'send({ ...options })',
			},
		],
		tests: [MONEY_PROPERTIES, ISSUE_31],
	}),
	property({
		id: 'i31.4a',
		name: "Keep at Least N Credits' book is keyed by the Base URL as written: a trailing slash splits one account in two",
		file: `${API}/account.ts`,
		edits: [
			{
				find: 'update(`${normalBaseUrl(baseUrl)}\\n${apiKeyOf(apiKey)}`)',
				replace: 'update(`${baseUrl}\\n${apiKeyOf(apiKey)}`)',
			},
		],
		tests: [MONEY_PROPERTIES, ISSUE_31],
	}),
	property({
		id: 'i31.3a',
		name: 'a long text is checked part by part: the floor refuses a later part after earlier ones were charged',
		file: `${API}/speech/longSpeech.ts`,
		edits: [
			{
				find: "const holds = await client.admitAll(\n\t\t'synthesizeSpeech',\n\t\tparts.map((part) => speechPrice(part.text.length)),\n\t\toptions,\n\t);",
				replace: 'const holds = parts.map(() => () => undefined);',
			},
		],
		tests: [LONG_SPEECH],
	}),
	property({
		id: 'i31.3b',
		name: "a part failing after charged parts throws their audio away: the error alone, the credits' audio lost",
		file: `${API}/speech/longSpeech.ts`,
		edits: [{ find: '\tif (!made.length) return failure;\n', replace: '\treturn failure;\n' }],
		tests: [LONG_SPEECH],
	}),
	example({
		id: 'i31.5a',
		name: "a keyed create refused outright after an attempt without an answer is reported as possibly made: the service's words go behind ours",
		file: `${API}/exchange.ts`,
		edits: [
			{
				find: 'if (idempotencyKey && isRefusal(error)) {',
				replace: 'if (idempotencyKey && isRefusal(error) && !reached) {',
			},
		],
		tests: [ISSUE_31],
	}),
	property({
		id: 'i31.6a',
		name: 'watcher: the pending list is cut to its newest LIMITS.pendingMax entries, finished-but-unannounced ones with them',
		file: `${WATCH}/poller.ts`,
		edits: [
			{
				find: '\t\tpending: [...pending.values()],\n',
				replace: '\t\tpending: keepLast([...pending.values()], LIMITS.pendingMax),\n',
			},
		],
		tests: [TRIGGER_PROPERTIES, TRIGGER_ISSUE_31],
	}),
	property({
		id: 'i31.6b',
		name: 'watcher: a walk takes as many new tasks as its pages allow, whatever room the hand-over and the pending list have (memory unbounded)',
		file: `${WATCH}/poller.ts`,
		edits: [
			{
				find: 'if (!roomLeft(options.room, taken) || !allowance.takePage()) return result(false);',
				replace: 'if (!allowance.takePage()) return result(false);',
			},
		],
		tests: [TRIGGER_PROPERTIES, TRIGGER_ISSUE_31],
	}),
	property({
		id: 'i31.7a',
		name: 'watcher: a list answering the same page again is taken as its end (no firstPageOnly, nothing said of what may be missed)',
		file: `${WATCH}/poller.ts`,
		edits: [
			{
				find: 'return result(true, { repeated: entries.length > 0 });',
				replace: 'return result(true);',
			},
		],
		tests: [TRIGGER_PROPERTIES, TRIGGER_ISSUE_31],
	}),
	property({
		id: 'i31.8a',
		name: 'watcher: a file that fails to download fails the whole poll',
		file: `${WATCH}/handOver.ts`,
		edits: [
			{
				find: 'if (!isPermanent(outcome.error) && failed < LIMITS.downloadTries) {',
				replace:
					'if (!isPermanent(outcome.error)) throw outcome.error;\n\t\t\tif (failed < LIMITS.downloadTries) {',
			},
		],
		tests: [TRIGGER_PROPERTIES, TRIGGER_ISSUE_31],
	}),
	property({
		id: 'i31.8b',
		name: 'watcher: a file that keeps failing is retried forever, its video never announced',
		file: `${WATCH}/handOver.ts`,
		edits: [
			{
				find: 'failed < LIMITS.downloadTries',
				replace: 'failed < Number.POSITIVE_INFINITY',
			},
		],
		tests: [TRIGGER_PROPERTIES, TRIGGER_ISSUE_31],
	}),
	example({
		id: 'i38.3a',
		name: 'a quote of 0 (the AI video cost endpoint answering credit 0, a model listed at 0) is taken as a known price: the cap admits every call at 0',
		file: `${API}/spendingClient.ts`,
		edits: [
			{
				find: 'return knownPrice(byTier ?? model.credit_per_image);',
				replace: 'return byTier ?? model.credit_per_image ?? undefined;',
			},
			{
				find: '.then((cost) => knownPrice(cost.credit));',
				replace: '.then((cost) => cost.credit);',
			},
		],
		tests: [PRICE_OF_ZERO, PRICE_OF_ZERO_NODE_RED],
	}),
	example({
		id: 'i38.8a',
		name: "the floor's book is keyed by the key as written: a key spelled with a trailing space splits one account in two",
		file: `${API}/account.ts`,
		edits: [
			{
				find: 'update(`${normalBaseUrl(baseUrl)}\\n${apiKeyOf(apiKey)}`)',
				replace: 'update(`${normalBaseUrl(baseUrl)}\\n${apiKey}`)',
			},
		],
		tests: [KEY_TRIMMED, SHARED_BOOK],
	}),
	example({
		id: 'i38.8b',
		name: 'the n8n credential sends the key as written, spaces and all',
		file: 'packages/n8n-nodes-visionstory/credentials/VisionStoryApi.credentials.ts',
		edits: [
			{
				find: "'={{ String($credentials.apiKey).trim() }}'",
				replace: "'={{$credentials.apiKey}}'",
			},
		],
		tests: [ACCOUNT],
	}),
	example({
		id: 'i38.5a',
		name: 'a path a result was written to is taken again: two paid videos, one file',
		file: `${API}/outputFiles.ts`,
		edits: [{ find: '(p) => this.paths.has(p)', replace: '() => false' }],
		tests: [OUTPUT_FILES],
	}),
	example({
		id: 'i38.6a',
		name: 'alignment words are read strictly: a word without times discards the paid answer',
		file: `${API}/contract/audio.ts`,
		edits: [
			{
				find: 'words: requiredList(WordDto),',
				replace: 'words: z.array(WordDto.extend({ start_sec: z.number(), end_sec: z.number() })),',
			},
		],
		tests: [WORD_TIMINGS],
	}),
	example({
		id: 'i38.6b',
		name: "captions are built from the answer's word times as they came: an odd word loses the captions",
		file: `${API}/captions/captionFiles.ts`,
		edits: [
			{
				find: 'buildCaptions(usable.words, captionLimits(options))',
				replace: 'buildCaptions(words as never, captionLimits(options))',
			},
		],
		tests: [WORD_TIMINGS],
	}),
	example({
		id: 'i38.7a',
		name: "n8n's Retry On Fail sends an instant charged call again (image, align, understand, …): charged once per try",
		file: `${FRAMEWORK}/mediaParams.ts`,
		edits: [
			{
				find: 'await sendInstant(ctx.client, name, request, call, instantScope(ctx, item.index))',
				replace: 'await sendInstant(ctx.client, name, request, call, undefined)',
			},
		],
		tests: [INSTANT_RETRY],
	}),
	example({
		id: 'i38.7b',
		name: 'a call whose answer was lost is forgotten: the retry sends it again',
		file: `${API}/instantCalls.ts`,
		edits: [
			{
				find: 'if (mayHaveBeenCharged(outcome.error)) {',
				replace: 'if (false && mayHaveBeenCharged(outcome.error)) {',
			},
		],
		tests: [INSTANT_CALLS, INSTANT_RETRY],
	}),
	example({
		id: 'i38.7c',
		name: "Text to Speech under n8n's Retry On Fail speaks and charges again",
		file: 'packages/n8n-nodes-visionstory/nodes/VisionStory/actions/textToSpeech/synthesize.operation.ts',
		edits: [
			{
				find: 'await speak(ctx.client, item.request, { signal: ctx.signal }, instantScope(ctx, item.index))',
				replace: 'await speak(ctx.client, item.request, { signal: ctx.signal }, undefined)',
			},
		],
		tests: [INSTANT_RETRY],
	}),
	example({
		id: 'i38.1a',
		name: 'a 404 after the task was seen proves it gone: the wait ends without the video, and a re-run (Retry On Fail) pays for a second one',
		file: `${API}/intents.ts`,
		edits: [
			{
				find: [
					'\t\tconst { lastSeen, answeredAgainAt } = evidence;',
					'\t\tif (!lastSeen || answeredAgainAt === undefined || answeredAgainAt < lastSeen.at) return false;',
				].join('\n'),
				replace:
					'\t\tif (evidence.lastSeen && evidence.absences.length > 0) return true;\n\t\tconst { lastSeen, answeredAgainAt } = evidence;\n\t\tif (!lastSeen || answeredAgainAt === undefined || answeredAgainAt < lastSeen.at) return false;',
			},
		],
		tests: [ISSUE_38],
	}),
	example({
		id: 'i38.2a',
		name: 'status reads failing five times in a row (a gateway page for a minute) end the wait: the item fails without its video id',
		file: `${API}/taskRun.ts`,
		edits: [
			{
				find: '\t\telse if (result instanceof VisionStoryError) attempt.readFailed(result, readAt);',
				replace: [
					'\t\telse if (result instanceof VisionStoryError) {',
					'\t\t\tattempt.readFailed(result, readAt);',
					'\t\t\tif (attempt.readErrors.length >= 5) return this.end(index, result);',
					'\t\t}',
				].join('\n'),
			},
		],
		tests: [ISSUE_38],
	}),
	// Defect 9 is not in the issue's list: found after it (the `leak` brief), it is its item 1's rule
	// that every ending carries the id and the key, broken by a cancel while a create was on its way.
	example({
		id: 'i38.9a',
		name: "a cancel cuts a create's request after it left: the service makes the video, and the run's error names neither its id nor its key",
		file: `${API}/exchange.ts`,
		edits: [
			{
				find: 'signal: spec.clientRequestId ? undefined : options.signal,',
				replace: 'signal: options.signal,',
			},
		],
		tests: [WAIT],
	}),
	example({
		id: 'i38.9b',
		name: 'talking videos sent side by side: the first cancelled create ends the run while the others are still on their way',
		file: `${API}/taskRun.ts`,
		edits: [{ find: '\t\t\tawait allAnswered(', replace: '\t\t\tawait Promise.all(' }],
		tests: [WAIT],
	}),
	example({
		id: 'i38.9c',
		name: "a cancelled create that may have reached the service is not noted: the run's error leaves out the key that returns its video",
		file: `${API}/taskRun.ts`,
		edits: [
			{
				find: 'if (error instanceof VisionStoryError) run.refused(index, error);',
				replace:
					'if (error instanceof VisionStoryError && !isAborted(error)) run.refused(index, error);',
			},
		],
		tests: [WAIT],
	}),
	example({
		id: 'i38.9d',
		name: "a cancel in the backoff after a create's answer was lost does not say the create may have reached the service",
		file: `${API}/exchange.ts`,
		edits: [
			{
				find: '\t\t\t} catch (error) {\n\t\t\t\tthrow cancelled(error);',
				replace: '\t\t\t} catch (error) {\n\t\t\t\tthrow error;',
			},
		],
		tests: [WAIT],
	}),
	example({
		id: 'i38.9e',
		name: 'a cancel while a create under a key sent before is read back drops the video its answer named',
		file: `${API}/taskCreate.ts`,
		edits: [
			{
				find: "if (isAborted(error)) return 'cancelled' as const;",
				replace: "if (false && isAborted(error)) return 'cancelled' as const;",
			},
		],
		tests: [WAIT],
	}),
	example({
		id: 'i38.9f',
		name: 'a create whose budget slot is granted as the cancel comes is sent all the same (it no longer listens to the signal)',
		file: `${API}/exchange.ts`,
		edits: [
			{
				find: '\tif (signal?.aborted) throw abortedError();\n\treturn http;',
				replace: '\treturn http;',
			},
		],
		tests: [WAIT],
	}),
];

/** The source with the mutant's edits made; throws when an edit's text is not found exactly once. */
export function mutate(source: string, mutant: Mutant): string {
	let text = source;
	for (const [i, edit] of mutant.edits.entries()) {
		const at = text.indexOf(edit.find);
		const again = at < 0 ? -1 : text.indexOf(edit.find, at + 1);
		if (at < 0 || again >= 0) {
			const how = at < 0 ? 'is not in' : 'is more than once in';
			throw new Error(
				`Mutant ${mutant.id}: the text of edit ${i + 1} ${how} ${mutant.file} (the code moved on; update the patch in scripts/mutants.ts):\n${edit.find}`,
			);
		}
		text = text.slice(0, at) + edit.replace + text.slice(at + edit.find.length);
	}
	return text;
}

// ---------------------------------------------------------------------------------------------
// The runner

interface JestAssertion {
	title: string;
	ancestorTitles: string[];
	status: string;
	failureMessages: string[];
}
interface JestReport {
	numFailedTests: number;
	numRuntimeErrorTestSuites: number;
	testResults: Array<{ name: string; message: string; assertionResults: JestAssertion[] }>;
}

interface TestRun {
	/** The tests passed; or some failed; or a suite could not run at all (a patch that breaks loading). */
	outcome: 'passed' | 'failed' | 'broken';
	failed: Array<{ title: string; runs?: number; seed?: string; error: string }>;
	seconds: number;
	/** Every test title with its result, for the baseline. */
	summary: string;
}

/** Files the runner has changed, with their content before: restored on any exit. */
const changed = new Map<string, string>();
let child: ReturnType<typeof spawn> | undefined;

function restoreAll(): void {
	for (const [file, original] of changed) writeFileSync(file, original);
	changed.clear();
}

function onSignal(signal: NodeJS.Signals): void {
	restoreAll();
	child?.kill(signal);
	process.stderr.write(`\nmutants: ${signal}; every file restored\n`);
	process.exit(130);
}

/**
 * What a property's counterexample broke: the first line under "Cause:" in the section jest prints
 * for the test (its JSON report leaves the cause out).
 */
function causeOf(printed: string, title: string): string | undefined {
	const at = printed.indexOf(`● ${title}\n`);
	if (at < 0) return undefined;
	const next = printed.indexOf('\n  ● ', at + 1);
	const section = printed.slice(at, next < 0 ? undefined : next);
	return /\n\s*Cause:\s*\n\s*(.+)/.exec(section)?.[1];
}

/** The line of a failure worth reading: what the counterexample broke, else the error's first line. */
function firstLine(message: string, cause?: string): string {
	const line = cause ?? message.split('\n').find((l) => l.trim()) ?? '';
	return line.trim().slice(0, 160);
}

/** The Node-RED package's suites run under their own jest config (they are left out of the root one). */
const NODE_RED_CONFIG = 'test/node-red/jest.config.js';

/** Runs the test files, each under its jest config, as one run. */
async function runJest(files: string[], scratch: string): Promise<TestRun> {
	const nodeRed = files.filter((file) => file.startsWith('test/node-red/'));
	const root = files.filter((file) => !nodeRed.includes(file));
	const runs: TestRun[] = [];
	if (root.length) runs.push(await runJestOnce(root, scratch));
	if (nodeRed.length) runs.push(await runJestOnce(nodeRed, scratch, NODE_RED_CONFIG));
	const outcome = runs.some((r) => r.outcome === 'broken')
		? 'broken'
		: runs.some((r) => r.outcome === 'failed')
			? 'failed'
			: 'passed';
	return {
		outcome,
		failed: runs.flatMap((r) => r.failed),
		seconds: runs.reduce((sum, r) => sum + r.seconds, 0),
		summary: runs.map((r) => r.summary).join('\n'),
	};
}

async function runJestOnce(files: string[], scratch: string, config?: string): Promise<TestRun> {
	const output = join(scratch, 'jest.json');
	rmSync(output, { force: true });
	const env = { ...process.env };
	// The default run counts, as `npm test` uses them.
	delete env.MONEY_RUNS;
	delete env.TRIGGER_PROPERTY_RUNS;
	const started = Date.now();
	const args = [
		join(REPO_ROOT, 'node_modules', 'jest', 'bin', 'jest.js'),
		...(config ? ['-c', config] : []),
		'--ci',
		'--json',
		`--outputFile=${output}`,
		...files,
	];
	const log: string[] = [];
	await new Promise<void>((resolve, reject) => {
		child = spawn(process.execPath, args, {
			cwd: REPO_ROOT,
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		child.stdout!.on('data', (chunk: Buffer) => log.push(chunk.toString()));
		child.stderr!.on('data', (chunk: Buffer) => log.push(chunk.toString()));
		child.on('error', reject);
		child.on('close', () => resolve());
	});
	child = undefined;
	const seconds = (Date.now() - started) / 1000;
	let report: JestReport;
	try {
		report = JSON.parse(readFileSync(output, 'utf8')) as JestReport;
	} catch {
		return { outcome: 'broken', failed: [], seconds, summary: log.join('').slice(-2000) };
	}
	const printed = stripVTControlCharacters(log.join(''));
	const failed: TestRun['failed'] = [];
	let broken = report.numRuntimeErrorTestSuites > 0;
	for (const suite of report.testResults) {
		if (suite.assertionResults.length === 0 && suite.message) broken = true;
		for (const test of suite.assertionResults) {
			if (test.status !== 'failed') continue;
			const message = stripVTControlCharacters(test.failureMessages.join('\n'));
			// As jest prints it: a title under describe blocks is told apart by them.
			const title = [...test.ancestorTitles, test.title].join(' › ');
			failed.push({
				title,
				runs: Number(/Property failed after (\d+) tests/.exec(message)?.[1]) || undefined,
				seed: /seed: (-?\d+)/.exec(message)?.[1],
				error: firstLine(message, causeOf(printed, title)),
			});
		}
	}
	const summary = report.testResults
		.flatMap((s) => s.assertionResults.map((t) => `${t.status}: ${t.title}`))
		.join('\n');
	const outcome = broken ? 'broken' : failed.length > 0 ? 'failed' : 'passed';
	return { outcome, failed, seconds, summary };
}

/** A test title cut to its start: the table names the property, the details keep it whole. */
function short(title: string): string {
	return title.length > 70 ? `${title.slice(0, 67)}...` : title;
}

interface Row {
	mutant: Mutant;
	caught: number;
	repeats: number;
	broken: boolean;
	/** Titles of the tests that failed: in how many repeats, and the runs fast-check needed each time. */
	failing: Map<string, { times: number; runs: number[] }>;
	errors: Set<string>;
	seconds: number;
}

function parseArgs(argv: string[]): { only: string[]; repeat: number } {
	let repeat = 1;
	const only: string[] = [];
	for (const arg of argv) {
		const r = /^--repeat=(\d+)$/.exec(arg);
		if (r) repeat = Math.max(1, Number(r[1]));
		else if (arg.startsWith('--')) throw new Error(`Unknown option ${arg}`);
		else only.push(arg);
	}
	return { only, repeat };
}

function selected(only: string[]): Mutant[] {
	if (only.length === 0) return MUTANTS;
	const chosen = MUTANTS.filter((m) => only.includes(m.id) || only.includes(defectName(m)));
	const unknown = only.filter((o) => !MUTANTS.some((m) => m.id === o || defectName(m) === o));
	if (unknown.length) throw new Error(`No mutant ${unknown.join(', ')}`);
	return chosen;
}

function table(rows: Row[]): string {
	const lines = [
		'| defect | mutation | test file | caught | what failed |',
		'|---|---|---|---|---|',
	];
	for (const row of rows) {
		const { mutant } = row;
		const file = mutant.tests.map((t) => `\`${t}\``).join(', ');
		const how = mutant.by === 'example' ? ' (example test)' : '';
		const caught = row.broken
			? 'BROKEN PATCH'
			: `${row.caught === row.repeats ? 'yes' : 'NO'}${row.repeats > 1 ? ` (${row.caught}/${row.repeats})` : ''}`;
		const what = [...row.failing]
			.map(([title, { times, runs }]) => {
				const most = runs.length ? Math.max(...runs) : undefined;
				const after =
					most === undefined
						? ''
						: `after ${row.repeats > 1 && runs.length > 1 ? 'at most ' : ''}${most} run${most === 1 ? '' : 's'}`;
				const often = row.repeats > 1 ? `${times}/${row.repeats}` : '';
				const note = [often, after].filter(Boolean).join(', ');
				return `${short(title)}${note ? ` (${note})` : ''}`;
			})
			.join('; ');
		lines.push(
			`| ${mutant.id} | ${mutant.name} | ${file}${how} | ${caught} | ${what || '—'} |`.replace(
				/\n/g,
				' ',
			),
		);
	}
	return lines.join('\n');
}

async function main(): Promise<void> {
	const { only, repeat } = parseArgs(process.argv.slice(2));
	const mutants = selected(only);
	// Every patch must apply before anything is changed.
	const originals = new Map<string, string>();
	for (const mutant of mutants) {
		const path = join(REPO_ROOT, mutant.file);
		if (!originals.has(path)) originals.set(path, readFileSync(path, 'utf8'));
		mutate(originals.get(path)!, mutant);
	}
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
	process.on('exit', restoreAll);
	const scratch = mkdtempSync(join(tmpdir(), 'mutants-'));
	const started = Date.now();
	try {
		// The tests must pass on the source as it is, or a failure says nothing about a patch.
		const files = [...new Set(mutants.flatMap((m) => m.tests))];
		const baseline = await runJest(files, scratch);
		console.log(`baseline (unpatched): ${baseline.outcome} in ${baseline.seconds.toFixed(1)} s`);
		if (baseline.outcome !== 'passed') {
			console.log(baseline.summary);
			throw new Error('The tests fail on the unpatched source: fix that first');
		}
		const rows: Row[] = [];
		for (const [n, mutant] of mutants.entries()) {
			const path = join(REPO_ROOT, mutant.file);
			const original = originals.get(path)!;
			const row: Row = {
				mutant,
				caught: 0,
				repeats: repeat,
				broken: false,
				failing: new Map(),
				errors: new Set(),
				seconds: 0,
			};
			changed.set(path, original);
			try {
				writeFileSync(path, mutate(original, mutant));
				for (let r = 0; r < repeat; r++) {
					const run = await runJest(mutant.tests, scratch);
					row.seconds += run.seconds;
					if (run.outcome === 'broken') {
						row.broken = true;
						console.log(run.summary);
						break;
					}
					if (run.outcome === 'failed') row.caught++;
					for (const f of run.failed) {
						const seen = row.failing.get(f.title) ?? { times: 0, runs: [] };
						seen.times++;
						if (f.runs !== undefined) seen.runs.push(f.runs);
						row.failing.set(f.title, seen);
						row.errors.add(`${short(f.title)}: ${f.error}`);
					}
				}
			} finally {
				writeFileSync(path, original);
				changed.delete(path);
			}
			rows.push(row);
			const verdict = row.broken
				? 'BROKEN PATCH'
				: row.caught === repeat
					? 'caught'
					: `SURVIVED ${repeat - row.caught} of ${repeat}`;
			console.log(
				`[${n + 1}/${mutants.length}] ${mutant.id} ${verdict} (${row.seconds.toFixed(1)} s): ${mutant.name}`,
			);
			for (const error of row.errors) console.log(`      ${error}`);
		}
		const minutes = ((Date.now() - started) / 60000).toFixed(1);
		console.log(`\n${table(rows)}\n`);
		const survivors = rows.filter((r) => r.broken || r.caught < r.repeats);
		console.log(
			`${rows.length} mutants, ${rows.length - survivors.length} caught, ${survivors.length} not; ${repeat} run(s) each; ${minutes} min; ${new Date().toISOString()}`,
		);
		process.exitCode = survivors.length > 0 ? 1 : 0;
	} finally {
		restoreAll();
		rmSync(scratch, { recursive: true, force: true });
	}
}

if (require.main === module)
	main().catch((error: unknown) => {
		restoreAll();
		console.error(error instanceof Error ? error.message : error);
		process.exitCode = 1;
	});
