/** `npm test`'s parts (scripts/test.ts): every suite file runs in some part, and every need names a part. */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

import { REPO_ROOT } from '../../scripts/paths';
import { PARTS, failureBlocks } from '../../scripts/test';

function walk(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
	);
}

test('every real-n8n suite file is a part of its own', () => {
	const files = walk(join(REPO_ROOT, 'test', 'e2e'))
		.filter((file) => file.endsWith('.test.ts'))
		.map((file) => relative(REPO_ROOT, file))
		.sort();
	const run = PARTS.flatMap((part) =>
		part.command.filter((arg) => arg.endsWith('.test.ts')),
	).sort();
	expect(run).toEqual(files);
});

test('the fast tests run in one part, and every part another needs exists and comes before it', () => {
	expect(PARTS.filter((part) => part.command[0] === 'jest' && part.command.length === 2)).toEqual([
		expect.objectContaining({ name: 'fast' }),
	]);
	const names = PARTS.map((part) => part.name);
	expect(new Set(names).size).toBe(names.length);
	for (const [index, part] of PARTS.entries())
		for (const need of [...part.after, ...part.waitsFor])
			expect(names.slice(0, index)).toContain(need);
});

test("a failed part's summary shows jest's failure sections, cut short, and no console sections", () => {
	const log = [
		'PASS a.test.ts',
		'  ● Console',
		'    console.log noise',
		'  ● suite › first fails',
		...Array.from({ length: 40 }, (_, i) => `    detail ${i}`),
		'  ● suite › second fails',
		'    expected 1, got 2',
		'Tests: 2 failed, 3 passed, 5 total',
	].join('\n');
	const blocks = failureBlocks(log, 10);
	expect(blocks).toHaveLength(2);
	expect(blocks[0].split('\n')).toHaveLength(10);
	expect(blocks[0]).toMatch(/^ {2}● suite › first fails/);
	expect(blocks[1]).toContain('expected 1, got 2');
	expect(blocks.join('\n')).not.toContain('console.log noise');
	// A part with no jest sections (a build) shows its last lines.
	expect(failureBlocks('a\nb\nerror TS2304', 2)).toEqual(['b\nerror TS2304']);
});
