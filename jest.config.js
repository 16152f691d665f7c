/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	// The real-n8n suite has its own config (test/e2e/jest.config.js) and runs after these; the Node-RED
	// package's suites have theirs (test/node-red/jest.config.js, test/node-red/e2e/jest.config.js).
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/', '<rootDir>/test/node-red/'],
	transform: {
		// Type checking is done once by `tsc --noEmit` in `npm run lint`; per-file transpiling keeps jest fast.
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
	},
	testTimeout: 120000,
	maxWorkers: 2,
};
