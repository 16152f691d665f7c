import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../../../shared/framework/action';
import { getManyOperation } from '../../../shared/framework/lists';
import { optional } from '../../../shared/framework/mapping';
import { param } from '../../../shared/framework/params';
import { limit, returnAll, toolDescription } from '../../../shared/descriptions/parameters';

const option: OperationOption = {
	name: 'Get Many',
	value: 'getMany',
	action: 'Get many voices',
	description: 'List your cloned voices and the public voice library',
};

const properties: INodeProperties[] = [
	toolDescription(
		'List voices (voice_id, name, language, gender, preview URL) to pick one for speech or a talking video. Free. Use Limit to keep the list short.',
	),
	{
		displayName: 'Library',
		name: 'library',
		type: 'options',
		options: [
			{ name: 'All Voices', value: 'all' },
			{ name: 'My Voices', value: 'own' },
			{ name: 'Public Library', value: 'public' },
		],
		default: 'all',
	},
	returnAll,
	limit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Locale',
				name: 'locale',
				type: 'string',
				default: '',
				placeholder: 'e.g. en or en-GB',
				description: 'A language (en) matches all its regions; a region (en-GB) only that one',
			},
			{
				displayName: 'Provider',
				name: 'provider',
				type: 'string',
				default: '',
				description: 'Speech engine the voice comes from',
			},
		],
	},
];

/** The page fields each library's voices come under, each voice marked with the library it is from. */
const LIBRARY_FIELDS: Record<string, Record<string, IDataObject>> = {
	all: { my_voices: { library: 'own' }, public_voices: { library: 'public' } },
	own: { my_voices: { library: 'own' } },
	public: { public_voices: { library: 'public' } },
};

export const getMany = getManyOperation({
	option,
	properties,
	list: 'listVoices',
	filters(ctx, index) {
		const filters = param.collection(ctx.n8n, 'filters', index);
		return { locale: optional(filters.locale), provider: optional(filters.provider) };
	},
	/** The voices of the library chosen, each marked with the library it is from. */
	paging(ctx, index) {
		const library = param.string(ctx.n8n, 'library', index) || 'all';
		return {
			// Own voices come whole on the first page; the public part of it is not wanted, so ask for the least.
			onePage: library === 'own' ? 1 : undefined,
			fields: LIBRARY_FIELDS[library] ?? LIBRARY_FIELDS.all,
		};
	},
});
