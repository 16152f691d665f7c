/**
 * What an HTTP status says about the request it answers, in one table every part of the core asks:
 * the exchange (what is sent again, what may have been processed), the task reads (a list that
 * refuses a parameter) and the watcher (a file that will never download). Before this table three
 * predicates disagreed on 408 and 409.
 */

/** What one error status says of the request it answers. */
export interface StatusMeaning {
	/**
	 * The same request may get another answer later (a timeout, a registration under way, a rate
	 * limit, a server or gateway failure): worth sending again, never proof of anything.
	 */
	transient: boolean;
	/**
	 * The service may have processed the request before answering so (a gateway timeout after the work
	 * was done, a 409 while the first submission registers): a charged call so answered may be charged.
	 */
	mayHaveProcessed: boolean;
}

/** Statuses below 500 that are not a refusal of the request itself. */
const TRANSIENT_4XX: Readonly<Record<number, StatusMeaning>> = {
	/** Request Timeout: the server gave up waiting; whether it started the work is not said. */
	408: { transient: true, mayHaveProcessed: true },
	/** Conflict: the first submission with this key is still being registered (facts.md). */
	409: { transient: true, mayHaveProcessed: true },
	/** Too Early: sent again later, it is taken. */
	425: { transient: true, mayHaveProcessed: false },
	/** Too Many Requests: refused before any work, so never charged. */
	429: { transient: true, mayHaveProcessed: false },
};

/** The meaning of an error status (4xx or 5xx). */
export function statusMeaning(status: number): StatusMeaning {
	if (status >= 500) return { transient: true, mayHaveProcessed: true };
	return TRANSIENT_4XX[status] ?? { transient: false, mayHaveProcessed: false };
}

/** Sent again, it may be answered otherwise. */
export function isTransientStatus(status: number): boolean {
	return statusMeaning(status).transient;
}

/** The service may have done the work before answering with this status. */
export function mayHaveProcessedStatus(status: number): boolean {
	return statusMeaning(status).mayHaveProcessed;
}

/**
 * The service refused this request (a 4xx that is not transient): it did nothing with it, and the
 * same request gets the same answer.
 */
export function isRefusalStatus(status: number): boolean {
	return status >= 400 && status < 500 && !statusMeaning(status).transient;
}
