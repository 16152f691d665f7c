import type { RequestLogEntry } from './types';

export type RequestFilter = { origin?: 'api' | 'media'; method?: string; path?: string };

/** What reached each origin. It records whether a key was sent and valid, never the key. */
export class RequestLog {
	private entries: RequestLogEntry[] = [];
	private seq = 0;

	add(entry: Omit<RequestLogEntry, 'seq'>): void {
		this.entries.push({ seq: ++this.seq, ...entry });
	}

	list(filter: RequestFilter = {}): RequestLogEntry[] {
		return this.entries
			.filter(
				(e) =>
					(!filter.origin || e.origin === filter.origin) &&
					(!filter.method || e.method === filter.method.toUpperCase()) &&
					(!filter.path || e.path === filter.path),
			)
			.map((e) => ({ ...e, query: { ...e.query } }));
	}

	clear(): void {
		this.entries = [];
	}
}

/** The most requests that arrived within any one second (emulator clock), e.g. to check a request budget. */
export function peakPerSecond(entries: RequestLogEntry[]): number {
	const times = entries.map((e) => e.at).sort((a, b) => a - b);
	let peak = 0;
	for (let end = 0, start = 0; end < times.length; end++) {
		while (times[start] <= times[end] - 1000) start++;
		peak = Math.max(peak, end - start + 1);
	}
	return peak;
}
