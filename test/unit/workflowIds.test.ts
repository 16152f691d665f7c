import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * n8n 1.x saves a workflow's static data only when its id has at most 16 characters (its
 * `isWorkflowIdValid`); `n8n import:workflow` keeps the id of the file. With a longer id the
 * trigger's place in the list would live in memory only and be lost at every restart: videos that
 * finish while n8n is down would never be emitted.
 */
const root = join(__dirname, '..', '..');
const folders = ['examples', 'test/e2e/queue/workflows'];

test.each(folders)('every workflow in %s has an id of at most 16 characters', (folder) => {
	const files = readdirSync(join(root, folder)).filter((f) => f.endsWith('.json'));
	expect(files.length).toBeGreaterThan(0);
	const tooLong = files
		.map(
			(file) =>
				[
					file,
					(JSON.parse(readFileSync(join(root, folder, file), 'utf8')) as { id?: string }).id ?? '',
				] as const,
		)
		.filter(([, id]) => id.length === 0 || id.length > 16);
	expect(tooLong).toEqual([]);
});
