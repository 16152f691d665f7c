/**
 * What a node is, as data: its operations and the properties each one shows. The editor's HTML is
 * generated from it at build time and the runtime reads properties through it, so the two never
 * disagree on a name, a default or which operation uses what.
 */
import type { Field } from './field';
import type { Operation } from './operation';

export interface NodeSpec {
	type: string;
	/** Palette label and default node label. */
	label: string;
	icon: string;
	/** One sentence for the palette tooltip and the help's first line. */
	summary: string;
	operations: readonly Operation[];
	fields: readonly Field[];
}

/** Where failures leave, on every node: the second output (output 1 carries results). */
export const FAILED_PORT = 1;

/**
 * An operation's outputs, one rule for every node: 1 results, 2 failures, then the operation's own
 * (Check Status: 3 still rendering). The runtime sends by it and the editor draws and labels by it.
 */
export function portsOf(operation: Operation): string[] {
	const own = operation.outputs ?? ['result'];
	return [own[0], 'failed', ...own.slice(1)];
}

/** The port an operation's result output (0, 1… of `Operation.outputs`) leaves by. */
export function portOf(output = 0): number {
	return output === 0 ? 0 : output + 1;
}
