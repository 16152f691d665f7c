/**
 * The real-n8n suites: per n8n line one in regular mode and one in queue mode (queue/), and the demo.
 * Each file starts its own n8n app (queue mode also Postgres and Redis, installed from Debian's
 * packages when missing) and is a part of `npm test` of its own (scripts/test.ts), run as its own jest
 * process beside the others. The suites install the pinned n8n versions too when missing.
 */
/** @type {import('jest').Config} */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
	},
	testTimeout: 180000,
	maxWorkers: 1,
	verbose: true,
};
