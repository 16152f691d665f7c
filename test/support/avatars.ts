/** The id of the first avatar of the service's public library, as a test's starting point. */
export async function firstPublicAvatarId(service: {
	baseUrl: string;
	apiKey: string;
}): Promise<string> {
	const response = await fetch(`${service.baseUrl}/api/v1/avatars?is_public=true&limit=1`, {
		headers: { 'X-API-Key': service.apiKey },
	});
	return ((await response.json()) as { data: { avatars: Array<{ avatar_id: string }> } }).data
		.avatars[0].avatar_id;
}
