import type { IExecuteFunctions } from 'n8n-workflow';

import {
	ledgerOf,
	MAX_EXECUTIONS,
	rememberedExecutions,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/framework/spend';

/** Just what the ledger registry reads of a node's context. */
const contextOf = (executionId: string | undefined) =>
	({
		getInstanceId: () => 'instance-1',
		getExecutionId: () => executionId,
	}) as unknown as IExecuteFunctions;

test('one ledger per execution, shared by every node run of it; a run without an execution shares nothing', () => {
	const first = ledgerOf(contextOf('101'));
	first.note('tts#1', 'synthesizeSpeech', 2);
	expect(ledgerOf(contextOf('101')).spent()).toBe(2);
	expect(ledgerOf(contextOf('102')).spent()).toBe(0);
	const loose = ledgerOf(contextOf(undefined));
	loose.note('tts#1', 'synthesizeSpeech', 2);
	expect(ledgerOf(contextOf(undefined)).spent()).toBe(0);
});

test('the registry stays bounded: the least recently used executions are forgotten first', () => {
	const kept = ledgerOf(contextOf('kept'));
	kept.note('video', 'synthesizeSpeech', 10);
	for (let i = 0; i < MAX_EXECUTIONS + 500; i++) {
		ledgerOf(contextOf(`run-${i}`)).note('tts#1', 'synthesizeSpeech', 2);
		// The execution still running keeps being used, so it stays.
		if (i % 1000 === 0) ledgerOf(contextOf('kept'));
	}
	expect(rememberedExecutions()).toBeLessThanOrEqual(MAX_EXECUTIONS);
	expect(ledgerOf(contextOf('kept')).spent()).toBe(10);
	// The oldest run was forgotten: a node of it now would start from nothing.
	expect(ledgerOf(contextOf('run-0')).spent()).toBe(0);
	expect(ledgerOf(contextOf(`run-${MAX_EXECUTIONS + 499}`)).spent()).toBe(2);
});
