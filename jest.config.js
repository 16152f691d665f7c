/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	// The real-n8n suites and the browser test have their own configs (test/e2e, test/browser) and run after these;
	// so do the Node-RED package's suites (test/node-red/jest.config.js, test/node-red/e2e/jest.config.js).
	testPathIgnorePatterns: [
		'/node_modules/',
		'<rootDir>/test/e2e/',
		'<rootDir>/test/browser/',
		'<rootDir>/test/node-red/',
	],
	transform: {
		// Type checking is done once by `tsc --noEmit` in `npm run lint`; per-file transpiling keeps jest fast.
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
	},
	testTimeout: 120000,
	maxWorkers: 2,
};
