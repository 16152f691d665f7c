/** The three model lists the service publishes, as the README fixes them. Pricing lives in pricing.ts. */

export interface TalkingModel {
	model_id: string;
	name: string;
	description: string;
	resolutions: string[];
	default_resolution: string;
	aspect_ratios: string[];
	is_default: boolean;
}

export const TALKING_ASPECT_RATIOS = ['9:16', '16:9', '1:1'] as const;
export const TALKING_EMOTIONS = ['cheerful', 'angry', 'marketing', 'news', 'singing'] as const;
export const SPEECH_RATES = ['slow', 'normal', 'fast'] as const;
export const DEFAULT_TALKING_MODEL = 'vs_character_v4';

export const TALKING_MODELS: TalkingModel[] = [
	{
		model_id: 'vs_character_v4',
		name: 'Character v4',
		description: 'Expressive talking avatar with natural head and hand motion',
		resolutions: ['720p', '1080p', '2k'],
		default_resolution: '720p',
		aspect_ratios: [...TALKING_ASPECT_RATIOS],
		is_default: true,
	},
	{
		model_id: 'vs_character_v3',
		name: 'Character v3',
		description: 'Previous generation talking avatar',
		resolutions: ['720p', '1080p'],
		default_resolution: '720p',
		aspect_ratios: [...TALKING_ASPECT_RATIOS],
		is_default: false,
	},
];

/** Retired ids still accepted: they render as vs_character_v4 at 720p (release 0.0.7). */
export const RETIRED_TALKING_MODELS = ['vs_talk_v1', 'vs_character_v1'];

export interface ImageModel {
	model_id: string;
	name: string;
	params: {
		prompt: { max_length: number };
		resolution: { values: string[]; default: string };
		aspect_ratio: { values: string[]; default: string };
		refs: { max: number };
	};
	credit_per_image: number;
	credit_by_resolution: Record<string, number>;
}

const IMAGE_ASPECT_RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3', '21:9'];

function imageModel(
	model_id: string,
	name: string,
	maxPrompt: number,
	prices: Record<string, number>,
	defaultTier: string,
	refsMax: number,
): ImageModel {
	return {
		model_id,
		name,
		params: {
			prompt: { max_length: maxPrompt },
			resolution: { values: Object.keys(prices), default: defaultTier },
			aspect_ratio: { values: IMAGE_ASPECT_RATIOS, default: '1:1' },
			refs: { max: refsMax },
		},
		credit_per_image: prices[defaultTier],
		credit_by_resolution: prices,
	};
}

export const IMAGE_MODELS: ImageModel[] = [
	imageModel('nano-banana-2', 'Nano Banana 2', 8000, { '1K': 4, '2K': 6 }, '1K', 4),
	imageModel('nano-banana-pro', 'Nano Banana Pro', 8000, { '1K': 8, '2K': 12 }, '1K', 4),
	imageModel('seedream-5.0-lite', 'Seedream 5.0 Lite', 4000, { '2K': 3, '4K': 6 }, '2K', 14),
	imageModel('seedream-5.0-pro', 'Seedream 5.0 Pro', 4000, { '1K': 5, '2K': 8 }, '1K', 10),
	imageModel('gpt-image-2', 'GPT Image 2', 32000, { '1K': 6, '2K': 10 }, '1K', 6),
	imageModel('gpt-image-2.5-flare', 'GPT Image 2.5 Flare', 32000, { '1K': 8, '2K': 12 }, '1K', 6),
	imageModel(
		'gpt-image-2.5-sunburst',
		'GPT Image 2.5 Sunburst',
		32000,
		{ '1K': 10, '2K': 16 },
		'1K',
		6,
	),
];

/** Long side in pixels of each image tier. */
export const IMAGE_TIER_PIXELS: Record<string, number> = { '1K': 1024, '2K': 2048, '4K': 4096 };

export interface AiVideoModel {
	model_id: string;
	name: string;
	family: string;
	params: {
		prompt: { max_length: number };
		duration_sec: { values: number[]; default: number };
		resolution: { values: string[]; default: string };
		aspect_ratio: { values: string[]; default: string };
		generate_audio: { supported: boolean; default: boolean };
	};
	media: {
		first_frame: { supported: boolean; mime_types: string[] };
		end_frame: { supported: boolean; mime_types: string[] };
		refs: { max: number; kinds: Array<'image' | 'video' | 'audio'> };
	};
}

const FRAME_MIMES = ['image/jpeg', 'image/jpg', 'image/png', 'image/webp'];
const range = (from: number, to: number): number[] =>
	Array.from({ length: to - from + 1 }, (_, i) => from + i);

export const AI_VIDEO_MODELS: AiVideoModel[] = [
	{
		model_id: 'seedance-1.0-pro',
		name: 'Seedance 1.0 Pro',
		family: 'seedance',
		params: {
			prompt: { max_length: 5000 },
			duration_sec: { values: [5, 10], default: 5 },
			resolution: { values: ['480p', '720p', '1080p'], default: '720p' },
			aspect_ratio: { values: ['16:9', '9:16', '1:1', '4:3', '3:4', '21:9'], default: '16:9' },
			generate_audio: { supported: false, default: false },
		},
		media: {
			first_frame: { supported: true, mime_types: FRAME_MIMES },
			end_frame: { supported: true, mime_types: FRAME_MIMES },
			refs: { max: 4, kinds: ['image'] },
		},
	},
	{
		model_id: 'wan-2.5',
		name: 'Wan 2.5',
		family: 'wan',
		params: {
			prompt: { max_length: 20000 },
			duration_sec: { values: range(2, 30), default: 5 },
			resolution: { values: ['480p', '720p', '1080p'], default: '720p' },
			aspect_ratio: { values: ['16:9', '9:16', '1:1'], default: '16:9' },
			generate_audio: { supported: true, default: true },
		},
		media: {
			first_frame: { supported: true, mime_types: FRAME_MIMES },
			end_frame: { supported: false, mime_types: [] },
			refs: { max: 0, kinds: [] },
		},
	},
	{
		model_id: 'kling-3.0',
		name: 'Kling 3.0',
		family: 'kling',
		params: {
			prompt: { max_length: 2500 },
			duration_sec: { values: [5, 10], default: 5 },
			resolution: { values: ['720p', '1080p', '4k'], default: '1080p' },
			aspect_ratio: { values: ['16:9', '9:16', '1:1'], default: '16:9' },
			generate_audio: { supported: true, default: false },
		},
		media: {
			first_frame: { supported: true, mime_types: FRAME_MIMES },
			end_frame: { supported: true, mime_types: FRAME_MIMES },
			refs: { max: 0, kinds: [] },
		},
	},
	{
		model_id: 'kling-3.0-omni',
		name: 'Kling 3.0 Omni',
		family: 'kling-omni',
		params: {
			prompt: { max_length: 2500 },
			duration_sec: { values: range(3, 15), default: 5 },
			resolution: { values: ['720p', '1080p'], default: '1080p' },
			aspect_ratio: { values: ['16:9', '9:16', '1:1'], default: '16:9' },
			generate_audio: { supported: true, default: true },
		},
		media: {
			first_frame: { supported: true, mime_types: FRAME_MIMES },
			end_frame: { supported: false, mime_types: [] },
			refs: { max: 7, kinds: ['image', 'video', 'audio'] },
		},
	},
];

export function findAiVideoModel(id: string): AiVideoModel | undefined {
	return AI_VIDEO_MODELS.find((m) => m.model_id === id);
}

export function findImageModel(id: string): ImageModel | undefined {
	return IMAGE_MODELS.find((m) => m.model_id === id);
}
