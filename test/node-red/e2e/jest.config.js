/**
 * The real-Node-RED suites: per supported line (4.1 on Node 20, 5.x on Node 24) one Node-RED started
 * from its npm install, with the package installed from its packed tarball. `npm run test:node-red:e2e`
 * installs the pinned lines first; the suites install them too when missing.
 */
/** @type {import('jest').Config} */
module.exports = {
	rootDir: '../../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/node-red/e2e'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
	},
	testTimeout: 180000,
	maxWorkers: 1,
	verbose: true,
};
