import type {
	CallOptions,
	Draft,
	FieldIssue,
	EndpointName,
	RequestBudget,
	RequestOf,
	ResponseOf,
	SpendingClient,
} from './api';
import { invalidInput } from './api';
import type { Field } from './field';

export interface Msg {
	_msgid?: string;
	payload?: unknown;
	[key: string]: unknown;
}

/** What an operation gets for one message: its properties (msg overrides applied), the client, the signal. */
export class Context {
	constructor(
		readonly nodeId: string,
		readonly operation: string,
		private readonly props: Record<string, unknown>,
		private readonly fields: ReadonlyMap<string, Field>,
		readonly msg: Msg,
		readonly client: SpendingClient,
		readonly budget: RequestBudget,
		readonly signal: AbortSignal,
		readonly status: (text: string, fill?: 'blue' | 'green' | 'yellow' | 'red' | 'grey') => void,
		/** One entry of a batch (msg.payload as an array): its own values win over everything else. */
		readonly entry?: Record<string, unknown>,
	) {}

	/** The same message seen through one entry of its batch: an object's fields, or a text as the script. */
	forEntry(entry: unknown, scriptName: string): Context {
		const values =
			entry !== null && typeof entry === 'object' && !Array.isArray(entry)
				? (entry as Record<string, unknown>)
				: { [scriptName]: entry };
		return new Context(
			this.nodeId,
			this.operation,
			this.props,
			this.fields,
			this.msg,
			this.client,
			this.budget,
			this.signal,
			this.status,
			values,
		);
	}

	/** The editor's value, or the message property of the same name where the field allows it. */
	value(name: string): unknown {
		if (this.entry && this.entry[name] !== undefined && this.entry[name] !== null)
			return this.entry[name];
		const field = this.fields.get(name);
		if (field?.override && this.msg[name] !== undefined && this.msg[name] !== null)
			return this.msg[name];
		return this.props[name] ?? field?.default;
	}

	/** Text, trimmed; empty becomes undefined. */
	text(name: string): string | undefined {
		const value = this.value(name);
		if (value === undefined || value === null) return undefined;
		if (typeof value === 'object') this.fail(name, `must be text (got ${JSON.stringify(value)})`);
		const text = String(value).trim();
		return text === '' ? undefined : text;
	}

	/** A text the operation cannot do without: a missing one is named before anything is sent. */
	required(name: string): string {
		const text = this.text(name);
		if (text === undefined) this.fail(name, 'is required');
		return text!;
	}

	/**
	 * A text or prompt: the editor's value, else msg.<name>, else a text msg.payload (so an inject or
	 * http-in node can feed it directly).
	 */
	script(name: string): string {
		const own = this.text(name);
		if (own !== undefined) return own;
		if (!this.entry && typeof this.msg.payload === 'string' && this.msg.payload.trim() !== '')
			return this.msg.payload.trim();
		return this.fail(
			name,
			`is required (set it in the node, or send it as msg.${name} or a text msg.payload)`,
		);
	}

	number(name: string): number | undefined {
		const value = this.value(name);
		if (value === undefined || value === null || value === '') return undefined;
		const n = typeof value === 'number' ? value : Number(String(value).trim());
		if (!Number.isFinite(n)) this.fail(name, `must be a number (got ${JSON.stringify(value)})`);
		const min = this.fields.get(name)?.min;
		if (min !== undefined && n < min) this.fail(name, `must be at least ${min} (got ${n})`);
		return n;
	}

	boolean(name: string): boolean {
		const value = this.value(name);
		return value === true || value === 'true';
	}

	/** A JSON value typed in the editor, or an object given in the message. */
	json(name: string): unknown {
		const value = this.value(name);
		if (typeof value !== 'string') return value;
		if (value.trim() === '') return undefined;
		try {
			return JSON.parse(value);
		} catch (error) {
			this.fail(name, `must be valid JSON (${(error as Error).message})`);
		}
		return undefined;
	}

	/** A list of ids: an array, or text separated by commas or new lines. */
	ids(name: string): string[] {
		const value = this.value(name);
		const list = Array.isArray(value) ? value.map(String) : String(value ?? '').split(/[\s,]+/);
		return list.map((id) => id.trim()).filter((id) => id !== '');
	}

	/** Refuses the message before anything is sent, naming the field as the editor shows it. */
	fail(name: string, message: string): never {
		throw invalidInput(this.operation, [{ field: this.label(name), message }]);
	}

	label(name: string): string {
		const field = this.fields.get(name);
		return field ? `"${field.label}" (${name})` : name;
	}

	/** Issues zod named by API path, shown with the editor's labels where the last part is a property's name. */
	relabel(issues: FieldIssue[]): FieldIssue[] {
		return issues.map((issue) => {
			const last = issue.field.split('.').pop() ?? '';
			const name = last.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
			return this.fields.has(name) ? { ...issue, field: this.label(name) } : issue;
		});
	}

	/** Options of one request: the close signal, the credential's budget, and a create's idempotency scope. */
	options(index = 0, extra: CallOptions = {}): CallOptions {
		return {
			signal: this.signal,
			budget: this.budget,
			idempotencyContext: `${this.msg._msgid ?? 'no-msgid'}:${this.nodeId}:${index}`,
			...extra,
		};
	}

	/** Checks a request and sends it (checked first: a bad one is refused with nothing sent). */
	async call<N extends EndpointName>(
		name: N,
		request: Draft<RequestOf<N>>,
		index = 0,
	): Promise<ResponseOf<N>> {
		return await this.client.send(name, this.client.validate(name, request), this.options(index));
	}
}
