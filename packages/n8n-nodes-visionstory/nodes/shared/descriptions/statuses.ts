import type { TaskStatus } from '../api/contract/index';

/** One label per task status, wherever a status is shown or chosen. */
export const STATUS_LABELS: Record<TaskStatus, string> = {
	queued: 'Queued',
	creating: 'Rendering',
	created: 'Ready',
	failed: 'Failed',
};

/** A status's label; a status this package does not know yet is shown as the service wrote it. */
export function statusLabel(status: string): string {
	return Object.hasOwn(STATUS_LABELS, status) ? STATUS_LABELS[status as TaskStatus] : status;
}
