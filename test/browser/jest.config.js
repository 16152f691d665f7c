/**
 * The browser test: the VisionStory node in the real n8n editor (both lines, one after the other),
 * driven through Debian's Chromium by playwright-core. Chromium is installed with apt-get when
 * missing; the pinned n8n versions are installed when missing, as in the real-n8n suites.
 */
/** @type {import('jest').Config} */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/browser'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
	},
	testTimeout: 180000,
	maxWorkers: 1,
	verbose: true,
};
