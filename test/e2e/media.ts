import { suiteFetch } from '../../scripts/suiteHttp';

/** Recognises produced files by their bytes, so a wrong MIME label or an empty download cannot pass. */
export function sniff(bytes: Buffer): 'mp4' | 'png' | 'mp3' | 'unknown' {
	if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
		return 'png';
	if (bytes.subarray(4, 8).toString('latin1') === 'ftyp') return 'mp4';
	if (
		bytes.subarray(0, 3).toString('latin1') === 'ID3' ||
		(bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0)
	)
		return 'mp3';
	return 'unknown';
}

export interface SrtCue {
	index: number;
	start: string;
	end: string;
	text: string;
}

export function parseSrt(text: string): SrtCue[] {
	return text
		.trim()
		.split(/\r?\n\r?\n/)
		.map((block) => {
			const [index, timing, ...lines] = block.split(/\r?\n/);
			const match = /^(\d\d:\d\d:\d\d,\d{3}) --> (\d\d:\d\d:\d\d,\d{3})$/.exec(timing ?? '');
			if (!/^\d+$/.test(index ?? '') || !match)
				throw new Error(`not an SRT cue: ${JSON.stringify(block)}`);
			return { index: Number(index), start: match[1], end: match[2], text: lines.join('\n') };
		});
}

export async function fetchBytes(url: string): Promise<Buffer> {
	const response = await suiteFetch(url);
	if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
	return Buffer.from(await response.arrayBuffer());
}

/** Rows of a CSV text (RFC 4180: quoted fields may hold commas, line breaks and doubled quotes), header row first. */
export function parseCsv(text: string): string[][] {
	const rows: string[][] = [];
	let row: string[] = [];
	let field = '';
	let quoted = false;
	const endField = () => {
		row.push(field);
		field = '';
	};
	const endRow = () => {
		endField();
		rows.push(row);
		row = [];
	};
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (quoted && c === '"' && text[i + 1] === '"') {
			field += '"';
			i++;
		} else if (c === '"') {
			quoted = !quoted;
		} else if (quoted) {
			field += c;
		} else if (c === ',') {
			endField();
		} else if (c === '\n' || c === '\r') {
			if (c === '\r' && text[i + 1] === '\n') i++;
			endRow();
		} else {
			field += c;
		}
	}
	if (field !== '' || row.length > 0) endRow();
	return rows;
}

/** The rows of a CSV with a header row, as objects keyed by the header's names. */
export function csvRecords(text: string): Array<Record<string, string>> {
	const [header, ...rows] = parseCsv(text);
	return rows
		.filter((row) => row.join('') !== '')
		.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ''])));
}
