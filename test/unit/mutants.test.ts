/**
 * `npm run mutants` (scripts/mutants.ts) puts each defect of issue 25, each money defect of issue 31,
 * and each defect of issue 38 fixed so far, back with a text patch. A patch
 * whose text the code no longer holds cannot be applied: this fails as soon as the code drifts, long
 * before anyone runs the mutants again.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { MUTANTS, mutate } from '../../scripts/mutants';
import { REPO_ROOT } from '../../scripts/paths';

test.each(MUTANTS.map((m) => [m.id, m] as const))(
	'mutant %s still applies to its file, and changes it',
	(_id, mutant) => {
		const source = readFileSync(join(REPO_ROOT, mutant.file), 'utf8');
		expect(mutate(source, mutant)).not.toBe(source);
		for (const file of mutant.tests) expect(existsSync(join(REPO_ROOT, file))).toBe(true);
	},
);

const defectsOf = (issue: number) =>
	[...new Set(MUTANTS.filter((m) => m.issue === issue).map((m) => m.defect))].sort((a, b) => a - b);

test("every defect of issue 25 (1 to 14), of issue 31 (1 to 8) and issue 38's has a mutant, each id once", () => {
	expect(defectsOf(25)).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
	expect(defectsOf(31)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
	expect(defectsOf(38)).toEqual(expect.arrayContaining([1, 2, 5, 6, 7]));
	expect(new Set(MUTANTS.map((m) => m.id)).size).toBe(MUTANTS.length);
});

test("issue 38's defects of the exchange and spending (3: prices of 0, 8: keys trimmed) each have a mutant", () => {
	expect(defectsOf(38)).toEqual(expect.arrayContaining([3, 8]));
});

test("issue 31's trigger defects (6, 7, 8) each have a mutant, caught by the watcher's properties", () => {
	expect(defectsOf(31)).toEqual(expect.arrayContaining([6, 7, 8]));
	for (const mutant of MUTANTS.filter((m) => m.issue === 31 && m.defect >= 6 && m.defect <= 8))
		expect(mutant.tests).toContain('test/engine/triggerProperty.test.ts');
});

test('a patch whose text is gone fails loudly, naming the mutant and the file', () => {
	const [mutant] = MUTANTS;
	expect(() => mutate('nothing of it here', mutant)).toThrow(
		new RegExp(`Mutant ${mutant.id}: the text of edit 1 is not in ${mutant.file}`),
	);
	const twice = `${mutant.edits[0].find}\n${mutant.edits[0].find}`;
	expect(() => mutate(twice, { ...mutant, edits: [mutant.edits[0]] })).toThrow(
		/is more than once in/,
	);
});
