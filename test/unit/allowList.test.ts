import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import ts from 'typescript';

/** What n8n supplies to community nodes at run time (the verified-node rule). */
const ALLOWED_MODULES = new Set([
	'n8n-workflow',
	'zod/v3',
	'lodash',
	'luxon',
	'p-limit',
	'crypto',
	'node:crypto',
]);
const FORBIDDEN_GLOBALS = new Set([
	'setTimeout',
	'setInterval',
	'setImmediate',
	'clearTimeout',
	'clearInterval',
	'clearImmediate',
	'process',
	'require',
	'global',
	'globalThis',
	'__dirname',
	'__filename',
]);

import { N8N_PACKAGE_DIR } from '../../scripts/paths';

const root = N8N_PACKAGE_DIR;

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return name.endsWith('.ts') ? [path] : [];
	});
}

interface Finding {
	file: string;
	what: string;
}

function inspect(file: string): Finding[] {
	const source = ts.createSourceFile(
		file,
		readFileSync(file, 'utf8'),
		ts.ScriptTarget.Latest,
		true,
	);
	const findings: Finding[] = [];
	const where = relative(root, file);
	const visit = (node: ts.Node) => {
		if (
			(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
			node.moduleSpecifier &&
			ts.isStringLiteral(node.moduleSpecifier)
		) {
			const name = node.moduleSpecifier.text;
			if (!name.startsWith('.') && !ALLOWED_MODULES.has(name))
				findings.push({ file: where, what: `imports ${name}` });
		}
		if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
			findings.push({ file: where, what: 'uses a dynamic import' });
		}
		if (ts.isIdentifier(node) && FORBIDDEN_GLOBALS.has(node.text)) {
			const parent = node.parent;
			const isPropertyName =
				(ts.isPropertyAccessExpression(parent) && parent.name === node) ||
				(ts.isPropertyAssignment(parent) && parent.name === node) ||
				ts.isPropertySignature(parent) ||
				ts.isMethodDeclaration(parent);
			if (!isPropertyName) findings.push({ file: where, what: `uses ${node.text}` });
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return findings;
}

test('node and credential code imports only what n8n supplies and touches no timers, process or files', () => {
	const files = [...sourceFiles(join(root, 'nodes')), ...sourceFiles(join(root, 'credentials'))];
	expect(files.length).toBeGreaterThan(20);
	expect(files.flatMap(inspect)).toEqual([]);
});

test('the check itself catches a forbidden import and a timer', () => {
	const probe = join(__dirname, 'allowList.probe.fixture.ts.txt');
	const findings = inspect(probe);
	expect(findings.map((f) => f.what)).toEqual(
		expect.arrayContaining(['imports axios', 'imports fs', 'uses setTimeout', 'uses process']),
	);
});
