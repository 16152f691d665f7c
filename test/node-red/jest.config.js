/**
 * The Node-RED package's unit suite: its nodes in Node-RED's runtime (node-red-node-test-helper)
 * against the emulator. The real-Node-RED suites have their own config (e2e/jest.config.js).
 */
/** @type {import('jest').Config} */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/node-red'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: [
		'/node_modules/',
		'<rootDir>/test/node-red/e2e/',
		'<rootDir>/test/node-red/browser/',
	],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
	},
	testTimeout: 60000,
	maxWorkers: 2,
};
