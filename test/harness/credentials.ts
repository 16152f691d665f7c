import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper, isExpression } from 'n8n-workflow';

/** Credential data per credential type name, plain (the harness never encrypts). */
export type CredentialDataMap = Record<string, ICredentialDataDecryptedObject | undefined>;

/**
 * The credentials side of n8n's CLI that n8n-core leaves to its host: handing nodes their
 * credential data and applying a credential type's `authenticate` to outgoing requests.
 * One instance serves one run, holding that run's credential data.
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly types: Record<string, ICredentialType>,
		private readonly data: CredentialDataMap,
		/** Sees every authenticated request just before it is sent; throwing stops it. */
		private readonly beforeSend?: (request: IHttpRequestOptions) => void,
	) {
		super();
	}

	getType(name: string): ICredentialType {
		const type = this.types[name];
		if (!type) {
			throw new Error(
				`Unknown credential type "${name}". Known: ${Object.keys(this.types).join(', ')}`,
			);
		}
		return type;
	}

	getParentTypes(name: string): string[] {
		const parents = this.types[name]?.extends ?? [];
		return parents.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		const type = this.types[credentialType];
		if (!type?.restrictToSupportedNodes) return true;
		return (type.supportedNodes ?? []).some((supported) => nodeType.endsWith(`.${supported}`));
	}

	/**
	 * n8n-core calls this for every `httpRequestWithAuthentication`. A function `authenticate` is
	 * called as is; a generic one is applied the way n8n's CLI does: each entry under headers / qs /
	 * body / auth is added to the request, keys and values resolved as expressions with
	 * `$credentials` bound to the credential data.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const authenticated = await this.applyAuthentication(
			credentials,
			typeName,
			requestOptions,
			workflow,
			node,
		);
		this.beforeSend?.(authenticated);
		return authenticated;
	}

	private async applyAuthentication(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.getType(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic') {
			if (!workflow || !node)
				throw new Error('Generic credential authentication needs the workflow and node');
			const resolve = (value: string): string => {
				if (!isExpression(value)) return value;
				const resolved = workflow.expression.getSimpleParameterValue(
					node,
					value,
					'internal',
					{ $credentials: credentials },
					undefined,
					'',
				);
				return resolved === undefined || resolved === null ? '' : String(resolved as string);
			};
			const target = requestOptions as unknown as Record<
				string,
				Record<string, unknown> | undefined
			>;
			for (const [section, entries] of Object.entries(authenticate.properties)) {
				const resolvedSection = (target[section] ??= {});
				for (const [key, value] of Object.entries(entries as Record<string, string>)) {
					resolvedSection[resolve(key)] = resolve(value);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	// Token-refreshing credentials (an expirable hidden property + preAuthentication) are not used by
	// this package; returning undefined is what n8n does for credentials without one.
	async preAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentials> {
		throw new Error(
			`The harness keeps credentials as plain data; encrypted "${type}" credentials are not supported`,
		);
	}

	/** The run's credential data for the type, with the type's defaults filled in as n8n does. */
	async getDecrypted(
		_additionalData: unknown,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.data[type];
		if (!data) {
			throw new Error(
				`No "${type}" credentials were given: pass them in the run's options.credentials.${type}`,
			);
		}
		return withDefaults(this.getCredentialsProperties(type), data);
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = this.getType(type);
		const inherited = (credentialType.extends ?? []).flatMap((parent) =>
			this.getCredentialsProperties(parent),
		);
		// Properties of the type itself override those of the types it extends.
		const own = new Set(credentialType.properties.map((property) => property.name));
		return [
			...inherited.filter((property) => !own.has(property.name)),
			...credentialType.properties,
		];
	}
}

export function withDefaults(
	properties: INodeProperties[],
	data: ICredentialDataDecryptedObject,
): ICredentialDataDecryptedObject {
	const result: ICredentialDataDecryptedObject = { ...data };
	for (const property of properties) {
		if (result[property.name] === undefined && property.default !== undefined) {
			result[property.name] = property.default as ICredentialDataDecryptedObject[string];
		}
	}
	return result;
}
