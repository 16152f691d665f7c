/** Recognises produced files by their bytes, so a wrong MIME label or an empty download cannot pass. */
export function sniff(bytes: Buffer): 'mp4' | 'png' | 'mp3' | 'unknown' {
	if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
	if (bytes.subarray(4, 8).toString('latin1') === 'ftyp') return 'mp4';
	if (bytes.subarray(0, 3).toString('latin1') === 'ID3' || (bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0)) return 'mp3';
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
			if (!/^\d+$/.test(index ?? '') || !match) throw new Error(`not an SRT cue: ${JSON.stringify(block)}`);
			return { index: Number(index), start: match[1], end: match[2], text: lines.join('\n') };
		});
}

export async function fetchBytes(url: string): Promise<Buffer> {
	const response = await fetch(url);
	if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
	return Buffer.from(await response.arrayBuffer());
}
