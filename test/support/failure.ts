import { VisionStoryError } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/errors';

/** The VisionStoryError a call fails with; the test fails if it succeeds or fails otherwise. */
export async function failure(promise: Promise<unknown>): Promise<VisionStoryError> {
	try {
		await promise;
	} catch (error) {
		expect(error).toBeInstanceOf(VisionStoryError);
		return error as VisionStoryError;
	}
	throw new Error('expected the call to fail');
}
