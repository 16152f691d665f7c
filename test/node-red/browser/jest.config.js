/**
 * The Node-RED editor in Debian's Chromium (playwright-core, as the n8n editor test drives it): the
 * packed package in a real Node-RED, what a user sees in the palette, the help and the edit dialog.
 */
/** @type {import('jest').Config} */
module.exports = {
	rootDir: '../../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/node-red/browser'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
	},
	testTimeout: 180000,
	maxWorkers: 1,
	verbose: true,
};
