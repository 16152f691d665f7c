import {
	isRefusalStatus,
	isTransientStatus,
	mayHaveProcessedStatus,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/statusCodes';
import { isClientError } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/taskErrors';
import { isPermanent } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/watch/handOver';
import { mayHaveReached } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/exchange';
import { VisionStoryError } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/errors';

const answered = (status: number) =>
	new VisionStoryError({ category: 'api', status, message: `HTTP ${status}` });

describe('the one status-code table', () => {
	it.each([408, 409, 425, 429, 500, 502, 503, 504])(
		'%i is transient, never a refusal',
		(status) => {
			expect(isTransientStatus(status)).toBe(true);
			expect(isRefusalStatus(status)).toBe(false);
		},
	);

	it.each([400, 401, 402, 403, 404, 410, 413, 415, 422])('%i is a refusal', (status) => {
		expect(isRefusalStatus(status)).toBe(true);
		expect(isTransientStatus(status)).toBe(false);
		expect(mayHaveProcessedStatus(status)).toBe(false);
	});

	it('a rate limit was never processed; a timeout, a registration under way or a 5xx may have been', () => {
		expect(mayHaveProcessedStatus(429)).toBe(false);
		for (const status of [408, 409, 500, 502]) expect(mayHaveProcessedStatus(status)).toBe(true);
	});

	it('the exchange, the task reads and the watcher agree on every status', () => {
		for (let status = 400; status < 600; status++) {
			const error = answered(status);
			const refusal = isRefusalStatus(status);
			expect(isClientError(error)).toBe(refusal);
			expect(isPermanent(error)).toBe(refusal);
			expect(mayHaveReached(error)).toBe(mayHaveProcessedStatus(status));
		}
	});
});
