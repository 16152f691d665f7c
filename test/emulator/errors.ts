/** A failure answered with the error envelope `{ error: { code, message, details?, hint? } }`. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly code: number,
		message: string,
		readonly extra: { details?: unknown; hint?: string; headers?: Record<string, string> } = {},
	) {
		super(message);
	}

	body(): { error: { code: number; message: string; details?: unknown; hint?: string } } {
		const error: { code: number; message: string; details?: unknown; hint?: string } = {
			code: this.code,
			message: this.message,
		};
		if (this.extra.details !== undefined) error.details = this.extra.details;
		if (this.extra.hint !== undefined) error.hint = this.extra.hint;
		return { error };
	}
}

export const TOP_UP_URL = 'https://www.visionstory.ai/pricing';

export function notFound(what: string, id: string): ApiError {
	return new ApiError(404, 404, `${what} not found: ${id}`);
}

export function forbidden(message: string, hint?: string): ApiError {
	return new ApiError(403, 403, message, hint === undefined ? {} : { hint });
}

export function badRequest(message: string, hint?: string): ApiError {
	return new ApiError(400, 400, message, hint === undefined ? {} : { hint });
}

/** 422 with the per-field errors as a JSON string, the way the service sends them. */
export function invalid(
	fieldErrors: Record<string, string>,
	message?: string,
	hint?: string,
	code = 422,
): ApiError {
	const first = Object.entries(fieldErrors)[0];
	const text =
		message ?? (first ? `Validation failed: ${first[0]} ${first[1]}` : 'Validation failed');
	return new ApiError(422, code, text, {
		details: JSON.stringify(fieldErrors),
		...(hint === undefined ? {} : { hint }),
	});
}

export function insufficientCredits(needed: number, balance: number): ApiError {
	return new ApiError(
		402,
		402,
		`Insufficient credits: this operation costs ${needed}, the balance is ${balance}`,
		{
			hint: `Top up credits at ${TOP_UP_URL}`,
		},
	);
}

/** What a `[fail]` marker does to a synchronous call other than image generation. */
export function upstreamFailure(operation: string): ApiError {
	return new ApiError(500, 500, `${operation} failed upstream; nothing was charged`, {
		hint: 'Retry later; if it keeps failing, change the input',
	});
}
