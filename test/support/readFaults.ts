import type { FaultScript } from '../emulator';

/**
 * Status reads answering as a deployment plausibly does for a while after a task was seen (issue 38):
 * a replica or load balancer that has not got the task (404), a gateway's HTML page (502).
 */
export const GATEWAY_PAGE =
	'<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>';

/** The talking video's status read. */
export const TALKING_STATUS_READ = { method: 'GET', path: '/api/v1/video' } as const;

/** After `after` reads, the next `count` answer 404 as the service's own envelope. */
export function notFoundReads(
	after: number,
	count: number,
	read = TALKING_STATUS_READ,
): FaultScript {
	return {
		...read,
		kind: 'respond',
		respond: { status: 404, body: { error: { code: 404, message: 'Video not found' } } },
		after,
		count,
	};
}

/** After `after` reads, every read answers a gateway's HTML 502 for `forMs` of emulator time. */
export function gatewayReads(
	after: number,
	forMs: number,
	read = TALKING_STATUS_READ,
): FaultScript {
	return {
		...read,
		kind: 'respond',
		respond: { status: 502, headers: { 'Content-Type': 'text/html' }, body: GATEWAY_PAGE },
		after,
		forMs,
	};
}
