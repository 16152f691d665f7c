/** Where things are in this repository: the workspace root, and the package folders it publishes. */
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '..');
/** The n8n community package: its package.json, nodes/, credentials/, icons/ and dist/. */
export const N8N_PACKAGE_DIR = join(REPO_ROOT, 'packages', 'n8n-nodes-visionstory');
