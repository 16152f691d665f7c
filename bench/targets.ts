/**
 * The targets table `npm run bench` ends with: every target of the issues that set them, each met or
 * missed, never left out. A row measured elsewhere (another section, another run) says so and counts as
 * missed here; a missed row states its measured cause and what would close it.
 */
export interface Target {
	target: string;
	/** What this run measured, or why it measured nothing. */
	measured: string;
	met: boolean;
	/** For a missed row: where the time (or memory) went, as measured, and what would close it. */
	cause?: string;
}

export function targetRows(targets: Target[]): string[] {
	return [
		'| target | measured | |',
		'|---|---|---|',
		...targets.map(
			(t) =>
				`| ${t.target} | ${t.measured} | ${t.met ? 'met' : `**missed**${t.cause ? `: ${t.cause}` : ''}`} |`,
		),
	];
}

/** A target whose figures this run did not produce: shown, counted as missed, with where they come from. */
export function notMeasured(target: string, where: string): Target {
	return { target, measured: 'not measured in this run', met: false, cause: where };
}
