import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Checked } from '../../../shared/api/client';
import type {
	Operation,
	OperationOption,
	Prepared,
	OperationContext,
} from '../../../shared/framework/action';
import { listEntries, wantedOf } from '../../../shared/framework/lists';
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

/** The filters, checked; paging is added per page. */
async function prepare(ctx: OperationContext, index: number): Promise<Checked<'listVoices'>> {
	const filters = param.collection(ctx.n8n, 'filters', index);
	return ctx.client.validate('listVoices', {
		locale: optional(filters.locale),
		provider: optional(filters.provider),
	});
}

async function execute(
	ctx: OperationContext,
	item: Prepared<Checked<'listVoices'>>,
): Promise<INodeExecutionData[]> {
	const library = param.string(ctx.n8n, 'library', item.index) || 'all';
	const voices = await listEntries(ctx, 'listVoices', item.request, {
		wanted: wantedOf(ctx, item.index),
		pageSize: 500,
		// Own voices come whole on the first page; the public part of it is not wanted, so ask for the least.
		onePage: library === 'own' ? 1 : undefined,
		fields: LIBRARY_FIELDS[library] ?? LIBRARY_FIELDS.all,
	});
	return voices.map((json) => ({ json }));
}

export const getMany: Operation<Checked<'listVoices'>> = {
	option,
	properties,
	prepare,
	execute,
};
