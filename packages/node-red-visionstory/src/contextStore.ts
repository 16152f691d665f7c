/** Where a node keeps what must outlive it (in-flight renders, the watch node's state). */
import type { NodeAPI } from 'node-red';

/** The context store that survives a restart: the default one when persistent, else the first persistent one. */
export function persistentStore(RED: Pick<NodeAPI, 'settings'>): {
	store?: string;
	persistent: boolean;
} {
	const stores = RED.settings.contextStorage ?? {};
	const moduleOf = (name: string): unknown => {
		let entry = stores[name];
		if (typeof entry === 'string') entry = stores[entry];
		return typeof entry === 'object' ? entry?.module : undefined;
	};
	const persistent = (name: string) => {
		const module = moduleOf(name);
		return module !== undefined && module !== 'memory';
	};
	const names = Object.keys(stores);
	const defaultName = 'default' in stores ? 'default' : names[0];
	if (defaultName && persistent(defaultName)) return { persistent: true };
	const other = names.find(persistent);
	return other ? { store: other, persistent: true } : { persistent: false };
}
