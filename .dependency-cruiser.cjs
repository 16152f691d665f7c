/**
 * The layers of nodes/shared and who may import whom (docs/architecture.md). `npm run lint` runs it.
 * Lower layers never import higher ones; the API layer knows nothing of n8n.
 */
const LAYERS = ['api', 'n8n', 'framework', 'descriptions', 'methods'];
const NODES = '^packages/n8n-nodes-visionstory/nodes/';
const shared = (layer) => `${NODES}shared/${layer}/`;

/** A layer may import only the layers listed before it in LAYERS (and itself). */
const upwardImports = LAYERS.map((layer, index) => ({
	name: `no-upward-import-from-${layer}`,
	comment: `${layer} may import only ${LAYERS.slice(0, index).join(', ') || 'itself'}`,
	severity: 'error',
	from: { path: shared(layer) },
	to: { path: `${NODES}shared/(${LAYERS.slice(index + 1).join('|') || 'none'})/` },
}));

/**
 * What the Node-RED package must take from the core rather than write again: src/api.ts, its one door,
 * imports each of them, and the nodes that use them import src/api.ts.
 */
const CORE_GUARANTEES = {
	'long-speech': 'speech/longSpeech',
	captions: 'captions/captionFiles',
	'output-file-naming': 'outputFiles',
	'media-fields': 'mediaRefs',
	pickers: 'pickers',
	'ledger-book': 'ledgerBook',
	'instant-calls': 'instantCalls',
	'video-pipeline': 'videoPipeline',
};
const NODE_RED = '^packages/node-red-visionstory/src/';

module.exports = {
	required: [
		...Object.entries(CORE_GUARANTEES).map(([name, file]) => ({
			name: `node-red-takes-${name}-from-the-core`,
			severity: 'error',
			comment: `src/api.ts imports nodes/shared/api/${file}.ts: the Node-RED package has no copy of its own`,
			module: { path: `${NODE_RED}api\\.ts$` },
			to: { path: `${shared('api')}${file}\\.ts$` },
		})),
		{
			name: 'node-red-speech-captions-and-files-come-through-the-adapter',
			severity: 'error',
			comment:
				'Text to Speech, Align and the output files use the core through src/api.ts (long speech, captions, output naming)',
			module: {
				path: `${NODE_RED}(nodes/text-to-speech/text-to-speech|nodes/align/align|media)\\.ts$`,
			},
			to: { path: `${NODE_RED}api\\.ts$` },
		},
		{
			name: 'node-red-watch-uses-the-core-watcher',
			comment:
				"The watch node adapts the core's watcher (nodes/shared/api/watch/) through src/api.ts rather than walking the lists itself: a fix to the watcher reaches both hosts",
			severity: 'error',
			module: { path: '^packages/node-red-visionstory/src/nodes/watch/watch\\.ts$' },
			to: { path: '^packages/node-red-visionstory/src/api\\.ts$' },
		},
		{
			name: 'node-red-adapter-exports-the-core-watcher',
			comment: "src/api.ts passes the core's watcher on to the watch node",
			severity: 'error',
			module: { path: '^packages/node-red-visionstory/src/api\\.ts$' },
			to: { path: `${NODES}shared/api/watch/watcher\\.ts$` },
		},
	],
	forbidden: [
		{
			name: 'node-red-has-no-own-audio-or-caption-library',
			comment:
				"MP3 joining, text splitting and captions are the core's (api/speech, api/captions): no library for them in the Node-RED package",
			severity: 'error',
			from: { path: '^packages/node-red-visionstory/' },
			to: {
				dependencyTypes: [
					'npm',
					'npm-dev',
					'npm-optional',
					'npm-peer',
					'npm-no-pkg',
					'npm-unknown',
				],
				path: 'node_modules/[^/]*(mp3|id3|lame|audio|subtitle|caption|srt|vtt|split)',
			},
		},
		...upwardImports,
		{
			name: 'no-n8n-in-api',
			comment: 'The API layer serves scripts and other hosts too: no n8n import',
			severity: 'error',
			from: { path: shared('api') },
			to: { path: '^node_modules/n8n-' },
		},
		{
			name: 'shared-never-imports-a-node',
			comment: "A node's own logic lives in its folder; shared code does not reach into nodes",
			severity: 'error',
			from: { path: `${NODES}shared/` },
			to: { path: `${NODES}VisionStory` },
		},
		{
			name: 'no-files-beside-the-layers',
			comment:
				'nodes/shared holds only the layer folders: nothing imports from a file beside them, and no such file imports',
			severity: 'error',
			from: { path: `${NODES}shared/[^/]+\\.ts$` },
			to: {},
		},
		{
			name: 'nothing-imports-beside-the-layers',
			severity: 'error',
			from: {},
			to: { path: `${NODES}shared/[^/]+\\.ts$` },
		},
		{
			name: 'no-node-to-node-imports',
			comment: 'Nodes share code through nodes/shared only',
			severity: 'error',
			from: { path: `${NODES}(VisionStory[^/]+)/` },
			to: { path: `${NODES}VisionStory`, pathNot: `${NODES}$1/` },
		},
		{
			name: 'node-red-reaches-the-client-through-one-adapter',
			comment:
				'The Node-RED package shares the VisionStory client through its build; only src/api.ts imports it, so a change inside api/ touches one file',
			severity: 'error',
			from: {
				path: '^packages/node-red-visionstory/src/',
				pathNot: '^packages/node-red-visionstory/src/api\\.ts$',
			},
			to: { path: '^packages/n8n-nodes-visionstory/' },
		},
		{
			name: 'node-red-takes-only-the-api-layer',
			comment:
				'Nothing of n8n reaches the Node-RED package: only nodes/shared/api, which has no n8n in it',
			severity: 'error',
			from: { path: '^packages/node-red-visionstory/' },
			to: { path: '^packages/n8n-nodes-visionstory/', pathNot: `${NODES}shared/api/` },
		},
		{ name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
	],
	options: {
		doNotFollow: { path: 'node_modules' },
		tsPreCompilationDeps: true,
		tsConfig: { fileName: 'tsconfig.json' },
		exclude: { path: '(^|/)(dist|test|bench|scripts)/' },
	},
};
