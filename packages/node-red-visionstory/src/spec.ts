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
