/**
 * The real-n8n suites: per n8n line one in regular mode and one in queue mode (queue/), run one after
 * the other (each starts a full n8n app; queue mode also Postgres and Redis, installed from Debian's
 * packages when missing). `npm run test:e2e` installs the pinned n8n versions first; the suites
 * install them too when missing.
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
