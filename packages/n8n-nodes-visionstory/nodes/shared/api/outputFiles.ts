/**
 * Where a host writes a result file, from a path template: `{id}`, `{index}` and `{ext}` are filled
 * in. A batch never writes two paid results to one file: when a template names neither `{id}` nor
 * `{index}` and the batch holds more than one result, each gets its number (1-based) before the
 * extension, `video.mp4` → `video-1.mp4`, `video-2.mp4`, …
 */

export interface OutputFile {
	/** The result's id (a video's, an audio's), or a word for it where it has none. */
	id: string;
	/** Its position in the batch, from 0. */
	index: number;
	/** Its file extension, without the dot. */
	ext: string;
	/** Results in the batch: 1 for a single message. */
	count: number;
}

const NAMES_EACH = /\{(id|index)\}/;

/** The path of one result: the template filled in, numbered when several results would share it. */
export function outputPath(template: string, file: OutputFile): string {
	const path = template
		.replace(/\{id\}/g, file.id)
		.replace(/\{index\}/g, String(file.index))
		.replace(/\{ext\}/g, file.ext);
	if (file.count <= 1 || NAMES_EACH.test(template)) return path;
	const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
	const dot = path.lastIndexOf('.');
	const number = `-${file.index + 1}`;
	return dot > slash + 1 ? `${path.slice(0, dot)}${number}${path.slice(dot)}` : `${path}${number}`;
}
