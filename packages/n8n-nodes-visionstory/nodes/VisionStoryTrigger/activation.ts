import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { WatchState } from '../shared/api/watch/cursor';

/**
 * Where the place taken at activation is kept for the first scheduled poll, in the workflow's global
 * static data: per node id, with the node's name.
 *
 * n8n's durable poll scheduler (2.36+, `N8N_POLLER_DURABLE_CURSORS_ENABLED`) gives a poll a copy of
 * the node's static data from its own table and writes it back only after a scheduled poll
 * (`PollCursorService`, with the execution the poll starts or on its own when the poll returns
 * nothing). The poll n8n runs at activation is not scheduled (`PollTriggerExecutor` runs it as a
 * test), so what it stores is dropped when it returns nothing, as a first poll always does; the first
 * scheduled poll, up to a Poll Times interval later, would take its place anew, and every video
 * finishing in between would count as finished before activation. The workflow's static data is
 * saved after every activation, whatever the mode, so the place also goes there, and a poll that
 * finds no state of its own starts from it.
 */
const PLACES_KEY = 'visionStoryTrigger';

interface Place {
	/** A node renamed since, or another node given the same id, does not take it. */
	node: string;
	state: WatchState;
}

function places(context: IPollFunctions): IDataObject {
	const kept = context.getWorkflowStaticData('global')[PLACES_KEY];
	return kept && typeof kept === 'object' && !Array.isArray(kept) ? (kept as IDataObject) : {};
}

function nodeKey(context: IPollFunctions): string {
	const node = context.getNode();
	return node.id || node.name;
}

/** The place an activation poll of this node left, if any. */
export function placeAtActivation(context: IPollFunctions): WatchState | undefined {
	const place = places(context)[nodeKey(context)] as Partial<Place> | undefined;
	return place?.node === context.getNode().name ? place.state : undefined;
}

/** Leaves the place this poll took for the scheduled polls that follow it. */
export function keepPlace(context: IPollFunctions, state: WatchState): void {
	const place: Place = { node: context.getNode().name, state };
	context.getWorkflowStaticData('global')[PLACES_KEY] = {
		...places(context),
		[nodeKey(context)]: place as unknown as IDataObject,
	};
}
