/**
 * What a node is, as data: its operations and the properties each one shows. The editor registers
 * its defaults and validators from it at build time and the runtime reads properties through it, so
 * the two never disagree on a name, a default or which operation uses what.
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

/**
 * An operation's outputs, one rule for every node: results first, then the failure output when the
 * node has one (the Failure output setting, or a node saved by 1.0.0), then the operation's own
 * (Check Status: still rendering). The runtime sends by it, and the editor runs its very source to
 * draw, label and rewire the outputs (self-contained for that).
 */
export function portsOf(
	operation: { outputs?: readonly string[] },
	failureOutput: boolean,
): string[] {
	const own = operation.outputs || ['result'];
	return failureOutput ? [own[0], 'failed'].concat(own.slice(1)) : own.slice();
}

/**
 * Whether a node has the failure output, and whether failures leave by it. A node saved by 1.0.0 has
 * no `failureOutput` property: it keeps 1.0.0's outputs (the failure output second), and failures
 * leave there when something is wired to it, as they did then; otherwise they go to Catch nodes.
 */
export function failuresOf(props: { failureOutput?: unknown; wires?: unknown[][] }): {
	port: boolean;
	toPort: boolean;
} {
	const setting = props.failureOutput;
	if (setting === undefined || setting === null || setting === '') {
		const wired = (props.wires?.[1]?.length ?? 0) > 0;
		return { port: true, toPort: wired };
	}
	const on = setting === true || setting === 'true';
	return { port: on, toPort: on };
}
