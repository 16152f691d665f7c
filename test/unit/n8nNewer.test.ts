/** The check for a newer n8n 2.x (scripts/n8n/newer.ts): which releases it tries, and what it says. */
import {
	compareVersions,
	describeReport,
	newerReleases,
	resolveFailure,
} from '../../scripts/n8n/newer';

test('releases newer than the line, same major, stable only, newest first', () => {
	const published = [
		'1.123.81',
		'2.40.7',
		'2.41.0',
		'2.41.1',
		'2.41.3',
		'2.42.0-rc.1',
		'2.9.9',
		'3.0.0',
	];
	expect(newerReleases('2.41.1', published)).toEqual(['2.41.3']);
	expect(newerReleases('2.40.7', published)).toEqual(['2.41.3', '2.41.1', '2.41.0']);
	expect(newerReleases('2.41.3', published)).toEqual([]);
	expect(compareVersions('2.10.0', '2.9.9')).toBeGreaterThan(0);
});

test("npm's failure is read as the package the registry lacks, or a spin, or its last error", () => {
	expect(
		resolveFailure(
			'step failed\nnpm error code ETARGET\nnpm error notarget No matching version found for @n8n/agents@0.26.2.\nnpm error notarget In most cases …',
		),
	).toBe('the registry has no @n8n/agents@0.26.2');
	expect(resolveFailure('x\n[install] killed after 5 minutes')).toMatch(/still resolving/);
	expect(resolveFailure('x\nnpm error code E404\nnpm error 404 Not Found - GET n8n')).toBe(
		'404 Not Found - GET n8n',
	);
});

test('the report names a newer release that resolves, or why none does', () => {
	expect(describeReport({ line: '2.41.1', newest: '2.41.1', tried: [] })).toMatch(
		/2\.41\.1 is the newest 2\.x/,
	);
	const blocked = describeReport({
		line: '2.41.1',
		newest: '2.41.3',
		tried: [
			{ version: '2.41.3', resolves: false, reason: 'the registry has no @n8n/agents@0.26.2' },
		],
	});
	expect(blocked).toBe(
		'n8n 2.41.1 stays the 2.x line: no newer 2.x resolves from the registry (2.41.3: the registry has no @n8n/agents@0.26.2)',
	);
	const found = { version: '2.42.0', resolves: true as const, packages: 2500 };
	expect(
		describeReport({
			line: '2.41.1',
			newest: '2.42.1',
			resolving: found,
			tried: [{ version: '2.42.1', resolves: false, reason: 'r' }, found],
		}),
	).toMatch(
		/^n8n 2\.42\.0 resolves in full \(2500 packages\), newer than the 2\.x line's 2\.41\.1/,
	);
});
