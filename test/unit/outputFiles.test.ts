import { outputPath } from '../../packages/n8n-nodes-visionstory/nodes/shared/api/outputFiles';

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
