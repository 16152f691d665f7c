/**
 * What the publish workflow checks before it publishes (CONTRIBUTING.md, "Releasing"): the pushed tag
 * names the package's version, the author is the publisher's (not the placeholder the repository
 * keeps), and repository.url is the repository the workflow runs in, which npm requires of a package
 * published with provenance.
 *
 *   tsx scripts/releaseCheck.ts <tag, e.g. v1.0.0> <owner/name of the GitHub repository>
 *   tsx scripts/releaseCheck.ts <tag, e.g. node-red-v1.0.0> <owner/name> node-red
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { NODE_RED_PACKAGE_DIR } from './node-red/paths';
import { N8N_PACKAGE_DIR } from './paths';

/** Each package's tag prefix: a tag per package, so each is released on its own. */
export const TAG_PREFIX = { n8n: 'v', 'node-red': 'node-red-v' } as const;

/** Marks the author fields the publisher has not set yet (package.json keeps it until a release). */
export const AUTHOR_PLACEHOLDER = 'set-before-publishing';

export interface PackageManifest {
	name?: string;
	version?: string;
	author?: string | { name?: string; email?: string };
	repository?: string | { url?: string };
}

/** Every reason not to publish; empty when the release may go ahead. */
export function releaseProblems(
	manifest: PackageManifest,
	tag: string,
	githubRepository: string,
	prefix: string = TAG_PREFIX.n8n,
): string[] {
	const problems: string[] = [];
	if (tag !== `${prefix}${manifest.version}`)
		problems.push(
			`the tag "${tag}" does not name package.json's version (${prefix}${manifest.version})`,
		);
	const author =
		typeof manifest.author === 'string'
			? manifest.author
			: `${manifest.author?.name ?? ''} <${manifest.author?.email ?? ''}>`;
	if (!manifest.author || author.includes(AUTHOR_PLACEHOLDER))
		problems.push(
			`package.json's author is the placeholder (${author}): set the name and email of the npm account that publishes, the same as the GitHub account's`,
		);
	const url =
		typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
	const expected = `github.com/${githubRepository}`;
	if (!url || url.replace(/^git\+/, '').replace(/\.git$/, '') !== `https://${expected}`)
		problems.push(
			`package.json's repository.url is "${url ?? ''}"; provenance needs git+https://${expected}.git`,
		);
	return problems;
}

function main(): void {
	const [tag, githubRepository, which = 'n8n'] = process.argv.slice(2);
	if (!tag || !githubRepository || !(which in TAG_PREFIX)) {
		console.error('usage: tsx scripts/releaseCheck.ts <tag> <owner/name> [n8n|node-red]');
		process.exit(2);
	}
	const dir = which === 'node-red' ? NODE_RED_PACKAGE_DIR : N8N_PACKAGE_DIR;
	const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageManifest;
	const problems = releaseProblems(
		manifest,
		tag,
		githubRepository,
		TAG_PREFIX[which as keyof typeof TAG_PREFIX],
	);
	if (problems.length) {
		console.error(
			`Not publishing ${manifest.name}@${manifest.version}:\n- ${problems.join('\n- ')}`,
		);
		process.exit(1);
	}
	console.log(`${manifest.name}@${manifest.version}: tag, author and repository check out`);
}

if (require.main === module) main();
