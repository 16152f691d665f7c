import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// The repository's own code: tests, scripts and benchmarks. The n8n package lints itself with n8n's
// default config (packages/n8n-nodes-visionstory/eslint.config.mjs, run by `n8n-node lint`); the
// Node-RED package's sources (packages/node-red-visionstory/src) are linted here.
export default tseslint.config(
	{
		ignores: [
			'**/dist/**',
			'**/node_modules/**',
			'.e2e/**',
			'.cache/**',
			'out/**',
			'**/*.js',
			'**/*.mjs',
			'packages/n8n-nodes-visionstory/**',
		],
	},
	{
		files: ['**/*.ts'],
		extends: [js.configs.recommended, tseslint.configs.recommended],
		languageOptions: { globals: { ...globals.node, ...globals.jest } },
		rules: {
			'prefer-spread': 'off',
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
			],
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-require-imports': 'off',
		},
	},
);
