import type {
	HttpChannel,
	HttpRequest,
	HttpResponse,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/http';
import { NetworkError } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/http';

/**
 * A channel that checks a run (`runTasks`, `followTasks`) never returns while one of its requests can
 * still reach the service: a request that arrives after its run returned is a video made (and paid)
 * that no item knows of, or, for a test, a task that turns up in the next test. A request can arrive
 * late only in three ways, all seen here as they happen, whatever the machine's load:
 * - it is sent after the run returned (a resend after a backoff, a held item sent later);
 * - it is still on its way when the run returns;
 * - it was cut short by a cancel after it left (the service may still have it, and act on it): only
 *   counted for requests that change something (POST), since a read cut short costs nothing.
 * One run at a time: wrap each in `run`.
 */
export class RunGuard implements HttpChannel {
	private running = false;
	/** A run has returned: from then on, a request sent outside a run is late (before, it is the test's set-up). */
	private returned = false;
	private readonly inFlight = new Map<HttpRequest, string>();
	/** Every late request seen, in words; a test expects none. */
	readonly late: string[] = [];

	constructor(private readonly inner: HttpChannel) {}

	async run<T>(work: () => Promise<T>): Promise<T> {
		this.running = true;
		try {
			return await work();
		} finally {
			this.running = false;
			this.returned = true;
			for (const [request, what] of this.inFlight)
				if (request.method !== 'GET' || !request.signal?.aborted)
					this.late.push(`${what}: still on its way when the run returned`);
		}
	}

	async send(request: HttpRequest): Promise<HttpResponse> {
		const what = `${request.method} ${new URL(request.url).pathname}`;
		if (!this.running && this.returned) this.late.push(`${what}: sent after the run returned`);
		this.inFlight.set(request, what);
		try {
			return await this.inner.send(request);
		} catch (error) {
			if (request.method !== 'GET' && error instanceof NetworkError && error.aborted)
				this.late.push(`${what}: cut short by a cancel after it was sent`);
			throw error;
		} finally {
			this.inFlight.delete(request);
		}
	}
}
