import { randomBytes } from 'node:crypto';

// Ids come from crypto, not the seeded PRNG: they must stay unique across resets and emulator instances.
export function newId(prefix: string): string {
	return `${prefix}_${randomBytes(12).toString('hex')}`;
}
