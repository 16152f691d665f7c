import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

import { packNodeRedPackage } from '../../../scripts/node-red/package';
import { scorecard } from '../../../scripts/node-red/scorecard';
import { NODE_RED_LINES } from '../../../scripts/node-red/versions';
import { REPO_ROOT } from '../../../scripts/paths';
import { describeLine } from './realNodeRed';

describeLine(NODE_RED_LINES.nr4);

describe('the flow library scorecard (node-red-dev validate, its look-ups answered offline)', () => {
	it('passes every check on the packed tarball', async () => {
		const work = join(REPO_ROOT, '.e2e', 'node-red-scorecard');
		rmSync(work, { recursive: true, force: true });
		mkdirSync(work, { recursive: true });
		const pkg = await packNodeRedPackage(join(work, 'pack'));
		const unpacked = join(work, 'package');
		mkdirSync(unpacked);
		execFileSync('tar', ['-xzf', pkg.tarball, '-C', unpacked, '--strip-components=1']);
		const { checks, output } = await scorecard(unpacked);
		expect(Object.keys(checks).sort()).toEqual(
			['D01', 'D02', 'D03', 'N01', 'N02', 'P01', 'P03', 'P04', 'P05', 'P06', 'P07', 'P08'].sort(),
		);
		const failed = Object.entries(checks).filter(([, c]) => c.test !== true);
		expect({ failed, output: failed.length ? output : '' }).toEqual({ failed: [], output: '' });
		expect(checks.P06.versions).toEqual(
			expect.arrayContaining(Object.values(NODE_RED_LINES).map((l) => l.nodeRed)),
		);
	});
});
