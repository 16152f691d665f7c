/**
 * The one door to the shared VisionStory client (packages/n8n-nodes-visionstory/nodes/shared/api,
 * which has no n8n in it). The build bundles it into dist/; nothing is copied. When the shared
 * client's internals change, this file is the only one here that should need to follow.
 */
export { VisionStoryClient } from '../../n8n-nodes-visionstory/nodes/shared/api/client';
export { SpendingClient } from '../../n8n-nodes-visionstory/nodes/shared/api/spendingClient';
export type { Checked, Draft } from '../../n8n-nodes-visionstory/nodes/shared/api/client';
export type {
	EndpointName,
	RequestOf,
	ResponseOf,
} from '../../n8n-nodes-visionstory/nodes/shared/api/contract';
export {
	ALL_MEDIA_MIME_TYPES,
	ASPECT_RATIOS,
	AVATAR_IMAGE_MIME_TYPES,
	EMOTIONS,
	MEDIA_MIME_TYPES,
	SPEECH_RATES,
	TALKING_VIDEO_AUDIO_MIME_TYPES,
	TALKING_VIDEO_RESOLUTIONS,
	TASK_STATUSES,
	VOICE_SAMPLE_MIME_TYPES,
	isFinished,
} from '../../n8n-nodes-visionstory/nodes/shared/api/contract';
export {
	VisionStoryError,
	invalidInput,
	isAborted,
	redact,
	redactText,
} from '../../n8n-nodes-visionstory/nodes/shared/api/errors';
export type { FieldIssue } from '../../n8n-nodes-visionstory/nodes/shared/api/errors';
export { NetworkError } from '../../n8n-nodes-visionstory/nodes/shared/api/http';
export type {
	ByteStream,
	Download,
	HttpChannel,
	HttpRequest,
	HttpResponse,
} from '../../n8n-nodes-visionstory/nodes/shared/api/http';
export {
	acceptedMimeType,
	sniffMimeType,
} from '../../n8n-nodes-visionstory/nodes/shared/api/mediaTypes';
export { fileFields, toMediaRef } from '../../n8n-nodes-visionstory/nodes/shared/api/mediaRefs';
export type {
	FileSource,
	MediaSource,
} from '../../n8n-nodes-visionstory/nodes/shared/api/mediaRefs';
export { pickerAnswer, pickerPages } from '../../n8n-nodes-visionstory/nodes/shared/api/pickers';
export type { PickerList } from '../../n8n-nodes-visionstory/nodes/shared/api/pickers';
export {
	USUAL_TYPE,
	WrittenPaths,
	resultFileName,
	resultFileType,
} from '../../n8n-nodes-visionstory/nodes/shared/api/outputFiles';
export type { ResultKind } from '../../n8n-nodes-visionstory/nodes/shared/api/outputFiles';
export { sendInstant } from '../../n8n-nodes-visionstory/nodes/shared/api/instantCalls';
export {
	PartialSpeechError,
	checkedSpeech,
	speak,
	speechEstimate,
} from '../../n8n-nodes-visionstory/nodes/shared/api/speech/longSpeech';
export type { SpokenText } from '../../n8n-nodes-visionstory/nodes/shared/api/speech/longSpeech';
export {
	CAPTION_FORMATS,
	captionFiles,
	captionFormat,
	captionLimitsIssue,
} from '../../n8n-nodes-visionstory/nodes/shared/api/captions/captionFiles';
export type { CaptionFormat } from '../../n8n-nodes-visionstory/nodes/shared/api/captions/captionFiles';
export { CAPTION_DEFAULTS } from '../../n8n-nodes-visionstory/nodes/shared/api/captions/captions';
export type { WordTiming } from '../../n8n-nodes-visionstory/nodes/shared/api/captions/captions';
export { budgetFor } from '../../n8n-nodes-visionstory/nodes/shared/api/requestBudget';
export type { RequestBudget } from '../../n8n-nodes-visionstory/nodes/shared/api/requestBudget';
export { balanceFloor } from '../../n8n-nodes-visionstory/nodes/shared/api/balance';
export {
	apiKeyOf,
	baseUrlOf,
	baseUrlProblem,
	DEFAULT_BASE_URL,
} from '../../n8n-nodes-visionstory/nodes/shared/api/account';
export { readLimit, SpendLedger } from '../../n8n-nodes-visionstory/nodes/shared/api/spend';
export { LedgerBook } from '../../n8n-nodes-visionstory/nodes/shared/api/ledgerBook';
export type { BalanceFloor, SpendPolicy } from '../../n8n-nodes-visionstory/nodes/shared/api/spend';
export {
	followVideos,
	itemTimeoutMs,
	makeVideos,
	readVideos,
	repeatedKeyErrors,
	waitSettings,
} from '../../n8n-nodes-visionstory/nodes/shared/api/videoPipeline';
export type {
	MadeVideo,
	PipelineHost,
} from '../../n8n-nodes-visionstory/nodes/shared/api/videoPipeline';
export type {
	Outcome,
	TaskKind,
	VideoTask,
} from '../../n8n-nodes-visionstory/nodes/shared/api/tasks';
export { KIND_WORDS } from '../../n8n-nodes-visionstory/nodes/shared/api/tasks';
export { Exchange } from '../../n8n-nodes-visionstory/nodes/shared/api/exchange';
export type {
	AudioResult,
	CallOptions,
} from '../../n8n-nodes-visionstory/nodes/shared/api/exchange';
export { watchOnce } from '../../n8n-nodes-visionstory/nodes/shared/api/watch/watcher';
export type { Announcer } from '../../n8n-nodes-visionstory/nodes/shared/api/watch/handOver';
export { Notices } from '../../n8n-nodes-visionstory/nodes/shared/api/watch/notices';
export { taskSources } from '../../n8n-nodes-visionstory/nodes/shared/api/watch/sources';
