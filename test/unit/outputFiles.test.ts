import {
	USUAL_TYPE,
	WrittenPaths,
	outputPath,
	resultFileName,
	resultFileType,
	safePathPart,
} from '../../packages/n8n-nodes-visionstory/nodes/shared/api/outputFiles';

const file = (index: number, count: number) => ({ id: `v${index}`, index, ext: 'mp4', count });

describe('output file paths', () => {
	test('a batch under a fixed path: each result numbered from 1 before the extension', () => {
		const paths = [0, 1, 2].map((i) => outputPath('/data/out/video.mp4', file(i, 3)));
		expect(paths).toEqual([
			'/data/out/video-1.mp4',
			'/data/out/video-2.mp4',
			'/data/out/video-3.mp4',
		]);
	});

	test('a path naming {id} or {index} is already one per result: filled in, not numbered', () => {
		expect(outputPath('/out/{id}.{ext}', file(1, 3))).toBe('/out/v1.mp4');
		expect(outputPath('/out/clip-{index}.mp4', file(2, 3))).toBe('/out/clip-2.mp4');
	});

	test('a single result keeps the path as given; {ext} alone does not tell results apart', () => {
		expect(outputPath('/out/video.{ext}', file(0, 1))).toBe('/out/video.mp4');
		expect(outputPath('/out/video.{ext}', file(1, 2))).toBe('/out/video-2.mp4');
	});

	test('no extension, or a dot only in a folder name: the number goes at the end', () => {
		expect(outputPath('/out/video', file(0, 2))).toBe('/out/video-1');
		expect(outputPath('/out.d/video', file(1, 2))).toBe('/out.d/video-2');
		expect(outputPath('C:\\out.d\\.hidden', file(0, 2))).toBe('C:\\out.d\\.hidden-1');
	});
});

describe('no two results on one path (issue 38 defect 5)', () => {
	test('a path a result was written to is numbered on from 2, as a batch numbers', () => {
		const written = new WrittenPaths();
		const single = (id: string) => ({ id, index: 0, ext: 'mp4', count: 1 });
		expect(written.claim('/out/video.mp4', single('v1'))).toBe('/out/video.mp4');
		expect(written.claim('/out/video.mp4', single('v2'))).toBe('/out/video-2.mp4');
		expect(written.claim('/out/video.mp4', single('v3'))).toBe('/out/video-3.mp4');
		// A batch keeps its own numbering; a number already taken is numbered on.
		expect([0, 1, 2].map((i) => written.claim('/out/video.mp4', file(i, 3)))).toEqual([
			'/out/video-1.mp4',
			'/out/video-2-2.mp4',
			'/out/video-3-2.mp4',
		]);
		// {index} alone does not tell two messages apart either.
		expect(written.claim('/out/clip-{index}.mp4', single('a'))).toBe('/out/clip-0.mp4');
		expect(written.claim('/out/clip-{index}.mp4', single('b'))).toBe('/out/clip-0-2.mp4');
	});

	test('memory is bounded: past its size the oldest paths are forgotten', () => {
		const written = new WrittenPaths(2);
		const single = { id: 'v', index: 0, ext: 'mp4', count: 1 };
		for (const name of ['a', 'b', 'c']) written.claim(`/out/${name}.mp4`, single);
		expect(written.claim('/out/a.mp4', single)).toBe('/out/a.mp4');
		expect(written.claim('/out/c.mp4', single)).toBe('/out/c-2.mp4');
	});
});

describe('service ids in paths (issue 38 item 7)', () => {
	test.each([
		['../x', '_._x'],
		['a/b', 'a_b'],
		['a\\b', 'a_b'],
		['nul\0id', 'nul_id'],
		['.hidden', '_hidden'],
		['..', '_.'],
		['', '_'],
		['vid_AbC-1.2', 'vid_AbC-1.2'],
	])('%j becomes %j and never leaves the folder', (id, safe) => {
		expect(safePathPart(id)).toBe(safe);
		expect(outputPath('/out/{id}.mp4', { id, index: 0, ext: 'mp4', count: 1 })).toBe(
			`/out/${safe}.mp4`,
		);
	});
});

describe('{ext} and file names from the type, the name, the first bytes or the kind', () => {
	const MP4_HEAD = Buffer.from('000000186674797069736f6d', 'hex');
	test.each([
		[{ mimeType: 'video/mp4', fileName: 'x' }, 'video/mp4', 'mp4'],
		[{ mimeType: 'image/jpeg; charset=binary' }, 'image/jpeg', 'jpg'],
		[{ mimeType: 'application/octet-stream', fileName: 'clip.mov' }, 'video/quicktime', 'mov'],
		[{ mimeType: 'application/octet-stream', fileName: 'video-vid_1' }, 'video/mp4', 'mp4'],
		[
			{ mimeType: 'application/octet-stream', fileName: 'x.video-1', head: Buffer.from('GIF89a') },
			'image/gif',
			'gif',
		],
		[{ fileName: 'vid_1', head: MP4_HEAD }, 'video/mp4', 'mp4'],
		[{ mimeType: 'video/x-matroska', fileName: 'clip.mkv' }, 'video/x-matroska', 'mkv'],
	])('%j as a video', (file, mimeType, ext) => {
		expect(resultFileType(file, USUAL_TYPE.video)).toEqual({ mimeType, ext });
	});

	test('the kind decides when nothing else does: mp4, png, mp3', () => {
		const octet = { mimeType: 'application/octet-stream', fileName: 'talking-v1.video-v1' };
		expect(resultFileType(octet, USUAL_TYPE.video).ext).toBe('mp4');
		expect(resultFileType(octet, USUAL_TYPE.image).ext).toBe('png');
		expect(resultFileType(octet, USUAL_TYPE.speech).ext).toBe('mp3');
	});

	test('a name a result came with is kept when its extension is known, made safe; else the id names it', () => {
		expect(resultFileName({ fileName: '../../evil.mp4' }, 'v1', USUAL_TYPE.video)).toBe('evil.mp4');
		expect(resultFileName({ fileName: '.env.png' }, 'v1', USUAL_TYPE.image)).toBe('_env.png');
		expect(resultFileName({ fileName: 'video-v1' }, '../v1', USUAL_TYPE.video)).toBe('_._v1.mp4');
		expect(resultFileName({ mimeType: 'audio/mpeg' }, 'speech-aud/1', USUAL_TYPE.speech)).toBe(
			'speech-aud_1.mp3',
		);
	});
});
