import type {
	CallOptions,
	Checked,
	Draft,
	FieldIssue,
	EndpointName,
	RequestBudget,
	RequestOf,
	ResponseOf,
	SpendingClient,
	WrittenPaths,
} from './api';
import { invalidInput, sendInstant } from './api';
import type { Field } from './field';
import { fieldProblem } from './field';

export interface Msg {
	_msgid?: string;
	payload?: unknown;
	[key: string]: unknown;
}

/** A result file as other nodes expect it beside msg.payload (msg.filename, msg.mimetype). */
export interface FileNote {
	filename: string;
	mimetype: string;
}

/** What the node hosting an operation offers it: its status ring, its warnings, and what it learns on the way. */
export interface Host {
	status(text: string, fill?: 'blue' | 'green' | 'yellow' | 'red' | 'grey'): void;
	warn(text: string): void;
	/** Videos submitted for this message and not yet delivered (kept in the node's context until they are). */
	submitted(kind: 'talkingVideo' | 'aiVideo', videoIds: string[]): void;
	/** The file a result entry was delivered as. */
	file(index: number, file: FileNote): void;
	/** Paths this node wrote results to since it started (a deploy): no two results share one. */
	readonly written: WrittenPaths;
}

/**
 * What an operation gets for one message: its properties, the client, the signal. One rule for every
 * property, as Node-RED's core nodes have it: the node's setting wins when set; a message property of
 * the same name (or a batch entry's) fills it when the setting is empty; one that tries to change a set
 * value is ignored with a warning.
 */
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
		readonly host: Host,
		/** One entry of a batch (msg.payload as an array): its values fill what the node leaves empty. */
		readonly entry?: Record<string, unknown>,
		/** Its position in the batch. */
		readonly index = 0,
	) {}

	status(text: string, fill?: 'blue' | 'green' | 'yellow' | 'red' | 'grey'): void {
		this.host.status(text, fill);
	}

	/** The same message seen through one entry of its batch: an object's fields, or a text as the script. */
	forEntry(entry: unknown, scriptName: string, index = 0): Context {
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
			this.host,
			values,
			index,
		);
	}

	/** The node's setting; when it is empty, the batch entry's value, else the message property (where allowed). */
	value(name: string): unknown {
		const field = this.fields.get(name);
		const setting = this.props[name];
		const given = this.given(name, field);
		if (isSet(setting)) {
			if (given && !sameValue(given.value, setting))
				this.host.warn(
					`${given.from} is ignored: the node's ${this.label(name)} is set, and a set value wins. Clear it in the node to take it from the message.`,
				);
			return setting;
		}
		return given ? given.value : (setting ?? field?.default);
	}

	/** What the batch entry or the message offers for a property, and from where. */
	private given(
		name: string,
		field: Field | undefined,
	): { value: unknown; from: string } | undefined {
		if (this.entry && isSet(this.entry[name]))
			return { value: this.entry[name], from: `Batch entry #${this.index + 1}'s ${name}` };
		if (field?.override && isSet(this.msg[name]))
			return { value: this.msg[name], from: `msg.${name}` };
		return undefined;
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
		const field = this.fields.get(name);
		const problem = fieldProblem({ type: 'number', min: field?.min }, value);
		if (problem) this.fail(name, problem);
		return typeof value === 'number' ? value : Number(String(value).trim());
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

	/**
	 * Where this message's instant charged calls (image, speech, align, …) are sent at most once: the
	 * message, the node and the batch entry. A message sent through the node again with its `_msgid`
	 * (a flow looping it back, a retry) gets the answer already charged for, or a refusal where the
	 * earlier send may have been charged without an answer (the core's `instantCalls`).
	 */
	instantScope(index = 0): string | undefined {
		return this.msg._msgid ? `${this.msg._msgid}:${this.nodeId}:${index}` : undefined;
	}

	/** Checks a request and sends it (checked first: a bad one is refused with nothing sent). */
	async call<N extends EndpointName>(
		name: N,
		request: Draft<RequestOf<N>>,
		index = 0,
	): Promise<ResponseOf<N>> {
		return await this.send(name, this.client.validate(name, request), index);
	}

	/** Sends a checked request; an instant charged call at most once per message, node and entry. */
	async send<N extends EndpointName>(
		name: N,
		request: Checked<N>,
		index = 0,
	): Promise<ResponseOf<N>> {
		return await sendInstant(
			this.client,
			name,
			request,
			this.options(index),
			this.instantScope(index),
		);
	}
}

/** Empty text, null and undefined are "not set"; false and 0 are set. */
function isSet(value: unknown): boolean {
	return (
		value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '')
	);
}

function sameValue(a: unknown, b: unknown): boolean {
	return typeof a === 'object' || typeof b === 'object'
		? JSON.stringify(a) === JSON.stringify(b)
		: String(a).trim() === String(b).trim();
}
