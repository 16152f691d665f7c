/**
 * Where a host writes a result file, and what it is named. A path template has `{id}`, `{index}` and
 * `{ext}` filled in. No two results are written to one path: a batch under a template naming neither
 * `{id}` nor `{index}` numbers each result (1-based) before the extension, `video.mp4` → `video-1.mp4`,
 * `video-2.mp4`, …; and a path a host already wrote a result to (`WrittenPaths`, kept by the node) is
 * numbered on from 2, `video.mp4` → `video-2.mp4`. A service's id is made safe before it becomes part
 * of a path, and `{ext}` comes from the file's type, its name, its first bytes or its kind.
 */
import { extensionFor, mimeTypeForExtension, sniffMimeType } from './mediaTypes';

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
/** Longest id kept in a file name: ids are short; a longer one is cut rather than failing the write. */
const MAX_ID = 100;

/**
 * An id (or a name a service gave) as one part of a path: it never leaves the folder. Anything but
 * letters, digits, `-`, `_` and `.` becomes `_` (so `/`, `\`, NUL and `..` separators are gone), and
 * a leading dot too (no hidden files, no `..`).
 */
export function safePathPart(id: string): string {
	const safe = id
		.slice(0, MAX_ID)
		.replace(/[^A-Za-z0-9._-]/g, '_')
		.replace(/^\./, '_');
	return safe === '' ? '_' : safe;
}

/** The path with `-n` before its extension (or at its end). */
function numbered(path: string, n: number): string {
	const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
	const dot = path.lastIndexOf('.');
	return dot > slash + 1 ? `${path.slice(0, dot)}-${n}${path.slice(dot)}` : `${path}-${n}`;
}

/**
 * The path of one result: the template filled in (the id made safe), numbered when several results
 * of a batch would share it, then numbered on from 2 while `taken` says a result was written there.
 */
export function outputPath(
	template: string,
	file: OutputFile,
	taken: (path: string) => boolean = () => false,
): string {
	const filled = template
		.replace(/\{id\}/g, safePathPart(file.id))
		.replace(/\{index\}/g, String(file.index))
		.replace(/\{ext\}/g, safePathPart(file.ext));
	const path =
		file.count <= 1 || NAMES_EACH.test(template) ? filled : numbered(filled, file.index + 1);
	let free = path;
	for (let n = 2; taken(free); n++) free = numbered(path, n);
	return free;
}

/** Paths a node wrote results to, so it never writes two to one path (bounded: the oldest are forgotten first). */
export class WrittenPaths {
	private readonly paths = new Set<string>();

	constructor(private readonly max = 10_000) {}

	/**
	 * The path of one result (`outputPath`), held at once so a result written meanwhile cannot take it
	 * too.
	 */
	claim(template: string, file: OutputFile): string {
		const path = outputPath(template, file, (p) => this.paths.has(p));
		this.paths.add(path);
		if (this.paths.size > this.max) this.paths.delete(this.paths.values().next().value!);
		return path;
	}
}

/** The usual type of each kind of result, when nothing else tells a file's type. */
export const USUAL_TYPE = {
	video: 'video/mp4',
	image: 'image/png',
	speech: 'audio/mpeg',
} as const;
export type ResultKind = keyof typeof USUAL_TYPE;

/** What a result file is, as a download tells it. */
export interface ResultFile {
	/** The type its answer gave, if any. */
	mimeType?: string;
	/** Its name from the answer or the link, if any. */
	fileName?: string;
	/** Its first bytes, where the host read them. */
	head?: Uint8Array;
}

/** Types that say nothing of what a file is. */
const GENERIC_TYPES = new Set([
	'application/octet-stream',
	'binary/octet-stream',
	'application/binary',
	'application/unknown',
	'application/download',
	'application/force-download',
]);

/** The extension at the end of a name (2 to 4 letters or digits), lower case. */
function extensionOf(name: string | undefined): string | undefined {
	return /\.([A-Za-z0-9]{2,4})$/.exec(name ?? '')?.[1]?.toLowerCase();
}

/** The extension of a name, when the table of types knows it. */
function knownExtension(name: string | undefined): string | undefined {
	const ext = extensionOf(name);
	return ext && mimeTypeForExtension(ext) ? ext : undefined;
}

/**
 * A result file's type and extension: its own type when it says what the file is; else its name's
 * extension (the table's); else its first bytes; else the kind's usual one (`usual`, e.g.
 * `video/mp4`). A link without an extension served as application/octet-stream is saved as its kind,
 * never as whatever follows the last dot of its name.
 */
export function resultFileType(file: ResultFile, usual: string): { mimeType: string; ext: string } {
	const given = file.mimeType?.split(';')[0].trim().toLowerCase();
	const typed = given && !GENERIC_TYPES.has(given) ? given : undefined;
	const named = knownExtension(file.fileName);
	const sniffed = typed || named || !file.head ? undefined : sniffMimeType(file.head);
	const mimeType = typed ?? mimeTypeForExtension(named) ?? sniffed ?? usual;
	const ext =
		extensionFor(typed) ??
		named ??
		// A type the table does not know (video/x-matroska) keeps the extension its name has.
		(typed ? extensionOf(file.fileName) : undefined) ??
		extensionFor(mimeType) ??
		'bin';
	return { mimeType, ext };
}

/**
 * A result file's name: the name it came with, made safe, when its extension is known; else `base`
 * (made safe) with the extension its type gives.
 */
export function resultFileName(file: ResultFile, base: string, usual: string): string {
	const given = file.fileName?.split(/[/\\]/).pop();
	if (given && knownExtension(given)) return safePathPart(given);
	return `${safePathPart(base)}.${resultFileType(file, usual).ext}`;
}
