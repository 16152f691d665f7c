import { createPrng } from '../emulator/prng';

/** Seeded, made-up scripts for the splitting and caption tests: realistic shape, no fixed content. */

const EN_WORDS = (
	'our new product helps small teams record explainer videos in minutes without a studio camera or editing ' +
	'skills you type the script choose a voice and an avatar then share the result with customers partners ' +
	'and colleagues across every channel they already use each week'
).split(' ');

export function englishSentence(rand: () => number): string {
	const n = 6 + Math.floor(rand() * 14);
	const words = Array.from({ length: n }, () => EN_WORDS[Math.floor(rand() * EN_WORDS.length)]);
	if (n > 8 && rand() < 0.4) words[Math.floor(n / 2)] += ',';
	words[0] = words[0][0].toUpperCase() + words[0].slice(1);
	return words.join(' ') + ['.', '.', '.', '!', '?'][Math.floor(rand() * 5)];
}

/** Paragraphs of 3 to 6 sentences separated by blank lines, about `chars` long. */
export function englishScript(chars: number, seed = 1): string {
	const rand = createPrng(seed);
	const paragraphs: string[] = [];
	let length = 0;
	while (length < chars) {
		const sentences = Array.from({ length: 3 + Math.floor(rand() * 4) }, () =>
			englishSentence(rand),
		);
		const paragraph = sentences.join(' ');
		paragraphs.push(paragraph);
		length += paragraph.length + 2;
	}
	return paragraphs.join('\n\n');
}

/** One paragraph: sentences separated by single spaces only. */
export function englishParagraph(chars: number, seed = 2): string {
	const rand = createPrng(seed);
	const sentences: string[] = [];
	let length = 0;
	while (length < chars) {
		const s = englishSentence(rand);
		sentences.push(s);
		length += s.length + 1;
	}
	return sentences.join(' ');
}

const ZH_PHRASES = [
	'我们的新产品',
	'可以帮助小团队',
	'在几分钟内',
	'录制讲解视频',
	'不需要摄影棚',
	'也不需要剪辑技能',
	'你只要输入脚本',
	'选择声音和形象',
	'然后分享给客户',
];
const JA_PHRASES = [
	'新しい製品は',
	'小さなチームが',
	'数分で',
	'説明動画を',
	'作れるように',
	'なりました',
	'スタジオも',
	'編集の技術も',
	'いりません',
];

/** Chinese or Japanese without spaces: sentences end in 。！？, Japanese ones sometimes inside 「」. */
export function cjkScript(chars: number, language: 'zh' | 'ja', seed = 3): string {
	const rand = createPrng(seed);
	const phrases = language === 'zh' ? ZH_PHRASES : JA_PHRASES;
	let text = '';
	while (text.length < chars) {
		const n = 2 + Math.floor(rand() * 5);
		let sentence = Array.from(
			{ length: n },
			() => phrases[Math.floor(rand() * phrases.length)],
		).join(rand() < 0.3 ? '，' : '');
		sentence += ['。', '。', '！', '？'][Math.floor(rand() * 4)];
		if (language === 'ja' && rand() < 0.2) sentence = `「${sentence}」`;
		text += sentence;
	}
	return text;
}

/** Japanese with no punctuation at all: only a word segmenter can find a place to cut. */
export function unpunctuatedJapanese(chars: number, seed = 4): string {
	const rand = createPrng(seed);
	let text = '';
	while (text.length < chars) text += JA_PHRASES[Math.floor(rand() * JA_PHRASES.length)];
	return text;
}
