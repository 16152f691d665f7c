import type { ICredentialType, INodeType, IVersionedNodeType } from 'n8n-workflow';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { N8N_PACKAGE_DIR } from '../../scripts/paths';

/** The n8n package's folder: the package.json whose `n8n` section we load. */
export const PACKAGE_ROOT = N8N_PACKAGE_DIR;

export interface PackageJson {
	name: string;
	/** The folder the package.json sits in (the n8n package's own when not given). */
	dir?: string;
	n8n?: { nodes?: string[]; credentials?: string[] };
}

export function readPackageJson(): PackageJson {
	return JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as PackageJson;
}

/**
 * package.json names built files (`dist/nodes/X/X.node.js`); the tests load the TypeScript source
 * next to them (`nodes/X/X.node.ts`) so jest's ts-jest transpiles it and no build is needed.
 */
export function sourcePathOf(distPath: string, packageDir = PACKAGE_ROOT): string {
	const relative = distPath.replace(/^(\.\/)?dist\//, '').replace(/\.js$/, '.ts');
	return path.join(packageDir, relative);
}

/**
 * Like n8n's loader, the class to instantiate is the export named after the file
 * (`VisionStoryApi.credentials.js` → `VisionStoryApi`).
 */
function loadClassInstance<T>(sourcePath: string): T {
	const className = path.basename(sourcePath).split('.')[0];
	const moduleExports = require(sourcePath) as Record<string, unknown>;
	const Class = moduleExports[className];
	if (typeof Class !== 'function') {
		throw new Error(
			`${sourcePath} does not export a class named "${className}" (n8n loads classes by file name)`,
		);
	}
	return new (Class as new () => T)();
}

/**
 * The package's node types under the names real n8n gives community packages:
 * `<package name>.<description.name>`, e.g. `n8n-nodes-visionstory.visionStory`.
 */
export function loadPackageNodeTypes(
	pkg: PackageJson = readPackageJson(),
): Record<string, INodeType | IVersionedNodeType> {
	const types: Record<string, INodeType | IVersionedNodeType> = {};
	for (const distPath of pkg.n8n?.nodes ?? []) {
		const nodeType = loadClassInstance<INodeType | IVersionedNodeType>(
			sourcePathOf(distPath, pkg.dir),
		);
		types[`${pkg.name}.${nodeType.description.name}`] = nodeType;
	}
	return types;
}

/** The package's credential types, keyed by their `name` (credential names carry no prefix). */
export function loadPackageCredentialTypes(
	pkg: PackageJson = readPackageJson(),
): Record<string, ICredentialType> {
	const types: Record<string, ICredentialType> = {};
	for (const distPath of pkg.n8n?.credentials ?? []) {
		const credentialType = loadClassInstance<ICredentialType>(sourcePathOf(distPath, pkg.dir));
		types[credentialType.name] = credentialType;
	}
	return types;
}
