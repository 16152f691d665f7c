/* Preloaded into `node-red-dev validate` (node -r): its look-ups of the flow library's catalogue and
   of Node-RED on the npm registry are answered from files on this machine, so the scorecard runs
   offline. Any other request fails the run. VS_SCORECARD_NODE_RED names the pinned Node-RED versions
   and the engines of the newest, as installed for the end-to-end suites. */
const Module = require('node:module');

const nodeRed = JSON.parse(process.env.VS_SCORECARD_NODE_RED || '{}');
const answers = {
	// An empty catalogue: no similarly named package, no node type taken (the real one is checked by hand).
	'https://catalogue.nodered.org/catalogue.json': { modules: [] },
	'https://registry.npmjs.org/node-red': nodeRed,
};

const axios = {
	get: async (url) => {
		if (!(url in answers)) throw new Error(`scorecard stub: no offline answer for ${url}`);
		return { data: answers[url] };
	},
};
// The package has no dependencies; npm-check would still ask the registry about the workspace.
const npmCheck = async () => ({ get: () => [] });

const load = Module._load;
Module._load = function (request, ...rest) {
	if (request === 'axios') return axios;
	if (request === 'npm-check') return npmCheck;
	return load.call(this, request, ...rest);
};
