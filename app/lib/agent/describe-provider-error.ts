import { providers, redactSecrets, type ProviderSettings } from './provider-settings.js';

export type ProviderErrorKind =
	| 'auth'
	| 'rate-limit'
	| 'network'
	| 'model-not-found'
	| 'server'
	| 'bad-request'
	| 'aborted'
	| 'unknown';

export interface ProviderErrorDescription {
	kind: ProviderErrorKind;
	/** HTTP status when the provider answered. */
	status?: number;
	/** Plain words with what to do; never contains the key. */
	message: string;
}

export interface DescribeOptions {
	/** Where the person fixes the key or model: `in Settings` (default), or the server's environment. */
	whereToFix?: string;
}

const maximumDetailLength = 300;

/**
 * Turns whatever a model call threw into a sentence a learner can act on. AI SDK errors are
 * read by shape (statusCode, responseBody, cause, lastError) so errors from any copy of the SDK
 * or a provider package are understood.
 */
export function describeProviderError(
	error: unknown,
	settings?: Pick<ProviderSettings, 'provider' | 'model' | 'apiKey'> | null,
	options: DescribeOptions = {}
): ProviderErrorDescription {
	const whereToFix = options.whereToFix ?? 'in Settings';
	const innermost = unwrap(error);
	const provider = settings ? providers[settings.provider]?.label : undefined;
	const who = provider ? `${provider}` : 'The provider';
	const redact = (text: string) => redactSecrets(text, settings);
	const detail = providerDetail(innermost);
	const withDetail = (sentence: string) =>
		detail ? `${sentence} (${who} said: ${redact(detail)})` : sentence;

	if (isAbort(innermost)) return { kind: 'aborted', message: 'Stopped.' };

	const status = statusOf(innermost);
	// The app's own /api/chat route writes its refusals (503: no model configured) for people:
	// show them whole, never cut off and never "try again in a moment" when retrying cannot help.
	if (settings?.provider === 'server' && (status === undefined || status === 503)) {
		const said = status === undefined ? messageOf(innermost) : providerDetail(innermost, false);
		if (said?.trim())
			return {
				kind: 'server',
				...(status === undefined ? {} : { status }),
				message: `The Server provider is not available: ${redact(said.trim())}`
			};
	}
	if (status === 401 || status === 403) {
		return {
			kind: 'auth',
			status,
			message: `The API key was refused (${status}): check it ${whereToFix}.`
		};
	}
	if (status === 429) {
		return {
			kind: 'rate-limit',
			status,
			message: withDetail(
				`${who} is limiting requests or the quota is used up (429): wait a minute and try again, or check the plan and billing of this key.`
			)
		};
	}
	if (status === 404) {
		const model = settings?.model ? `"${settings.model}"` : 'The model';
		return {
			kind: 'model-not-found',
			status,
			message: withDetail(
				`${model} was not found (404): check the model name (and the base URL) ${whereToFix}.`
			)
		};
	}
	if (status !== undefined && status >= 500) {
		return {
			kind: 'server',
			status,
			message: withDetail(
				`${who} had a problem on its side (${status}): try again in a moment, or pick another model.`
			)
		};
	}
	if (status !== undefined && status >= 400) {
		return {
			kind: 'bad-request',
			status,
			message: withDetail(
				`${who} rejected the request (${status}): the model may not support tool calls, or the conversation is too long. Try another model or start a new conversation.`
			)
		};
	}
	if (isNetworkFailure(innermost)) {
		return {
			kind: 'network',
			message: `${who} could not be reached: check your connection and the base URL. Some providers block requests from a browser (CORS); use the Server provider or an OpenAI-compatible proxy.`
		};
	}
	const text = messageOf(innermost) ?? messageOf(error) ?? String(error);
	return {
		kind: 'unknown',
		message: `The model call failed: ${truncate(redact(text))}`
	};
}

/** The AI SDK wraps the real error in RetryError (lastError) and others (cause). */
function unwrap(error: unknown): unknown {
	let current = error;
	for (let depth = 0; depth < 5; depth++) {
		if (typeof current !== 'object' || current === null) return current;
		const record = current as Record<string, unknown>;
		if (statusOf(current) !== undefined) return current;
		if ('lastError' in record && record.lastError !== undefined) {
			current = record.lastError;
			continue;
		}
		// A network failure keeps its own message; only descend when the wrapper says nothing.
		if (isNetworkFailure(current)) return current;
		if ('cause' in record && typeof record.cause === 'object' && record.cause !== null) {
			current = record.cause;
			continue;
		}
		return current;
	}
	return current;
}

function statusOf(error: unknown): number | undefined {
	if (typeof error !== 'object' || error === null) return undefined;
	const record = error as Record<string, unknown>;
	for (const field of ['statusCode', 'status']) {
		const value = record[field];
		if (typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 599)
			return value;
	}
	return undefined;
}

function messageOf(error: unknown): string | undefined {
	if (error instanceof Error) return error.message;
	if (typeof error === 'object' && error !== null) {
		const message = (error as Record<string, unknown>).message;
		if (typeof message === 'string') return message;
	}
	if (typeof error === 'string') return error;
	return undefined;
}

function isAbort(error: unknown): boolean {
	if (typeof error !== 'object' || error === null) return false;
	const name = (error as Record<string, unknown>).name;
	return name === 'AbortError' || name === 'TimeoutError';
}

const networkMessages = [
	'cannot connect to api',
	'failed to fetch',
	'fetch failed',
	'networkerror when attempting to fetch resource',
	'load failed',
	'network request failed',
	'econnrefused',
	'enotfound'
];

function isNetworkFailure(error: unknown): boolean {
	const message = messageOf(error)?.toLowerCase();
	if (message && networkMessages.some((known) => message.includes(known))) return true;
	if (typeof error === 'object' && error !== null && 'cause' in error) {
		const cause = (error as { cause?: unknown }).cause;
		const causeMessage = messageOf(cause)?.toLowerCase();
		const code = (cause as { code?: unknown } | null)?.code;
		if (causeMessage && networkMessages.some((known) => causeMessage.includes(known))) return true;
		if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ECONNRESET') return true;
	}
	return false;
}

/** The provider's own explanation from an OpenAI/Anthropic/Google style error body. */
function providerDetail(error: unknown, shorten = true): string | undefined {
	if (typeof error !== 'object' || error === null) return undefined;
	const record = error as Record<string, unknown>;
	const cut = (text: string) => (shorten ? truncate(text) : text);
	const fromData = errorMessageIn(record.data);
	if (fromData) return cut(fromData);
	if (typeof record.responseBody === 'string') {
		try {
			const fromBody = errorMessageIn(JSON.parse(record.responseBody));
			if (fromBody) return cut(fromBody);
		} catch {
			const body = record.responseBody.trim();
			// HTML error pages say nothing useful.
			if (body && !body.startsWith('<')) return cut(body);
		}
	}
	return undefined;
}

function errorMessageIn(value: unknown): string | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const record = value as Record<string, unknown>;
	if (typeof record.error === 'string') return record.error;
	if (typeof record.error === 'object' && record.error !== null) {
		const message = (record.error as Record<string, unknown>).message;
		if (typeof message === 'string') return message;
	}
	if (typeof record.message === 'string') return record.message;
	return undefined;
}

function truncate(text: string): string {
	const singleLine = text.replace(/\s+/g, ' ').trim();
	return singleLine.length > maximumDetailLength
		? `${singleLine.slice(0, maximumDetailLength)}…`
		: singleLine;
}
