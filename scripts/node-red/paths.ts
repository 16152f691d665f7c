import { join } from 'node:path';

import { REPO_ROOT } from '../paths';

/** The Node-RED package: src/, examples/, icons/ and the dist/ its build writes. */
export const NODE_RED_PACKAGE_DIR = join(REPO_ROOT, 'packages', 'node-red-visionstory');
