import { badRequest } from '../errors';
import { ok, type Reply } from '../router';
import type { TaskStatus } from '../types';
import { Validator } from '../validation';

const STATUSES: readonly TaskStatus[] = ['queued', 'creating', 'created', 'failed'];

/** `status=queued,creating`: an unknown value is a 400, as the service answers it. */
export function statusFilter(query: URLSearchParams): Set<TaskStatus> | undefined {
	const raw = query.get('status');
	if (raw === null || raw.trim() === '') return undefined;
	const wanted = raw
		.split(',')
		.map((s) => s.trim().toLowerCase())
		.filter((s) => s !== '');
	const unknown = wanted.filter((s) => !STATUSES.includes(s as TaskStatus));
	if (unknown.length > 0) {
		throw badRequest(
			`Unknown status ${unknown.map((s) => `"${s}"`).join(', ')}`,
			`Use a comma-separated subset of ${STATUSES.join(', ')}`,
		);
	}
	return new Set(wanted as TaskStatus[]);
}

export interface PageParams {
	cursor: number;
	limit: number;
}

export function pageParams(
	v: Validator,
	query: URLSearchParams,
	maxLimit: number,
	defaultLimit = 20,
): PageParams {
	const cursor = v.queryInt(query, 'cursor', { min: 0, default: 0 }) ?? 0;
	const limit =
		v.queryInt(query, 'limit', { min: 1, max: maxLimit, default: defaultLimit }) ?? defaultLimit;
	return { cursor, limit };
}

/** A required id in the query string (`video_id`, `avatar_id`, ...). */
export function queryId(query: URLSearchParams, name: string): string {
	const v = new Validator();
	const id = v.queryString(query, name, true);
	v.throwIfAny();
	return id as string;
}

export function deleted(): Reply {
	return ok({ deleted: true });
}

/** Failure markers the README defines: `[fail]` and `[moderate]` anywhere in a script, prompt or text. */
export function hasMarker(text: string | undefined, marker: 'fail' | 'moderate'): boolean {
	return text !== undefined && text.toLowerCase().includes(`[${marker}]`);
}
