import { concatenateBytes } from '../../../hooks/bytes/concatenate-bytes.js';
/**
 * One GET with a size cap, turning every failure into a value with a sentence a person can act
 * on. The body is read as a stream and abandoned at the cap, so a huge response costs nothing.
 */
export type Fetcher = (input: string, init?: RequestInit) => Promise<Response>;

export type FetchErrorKind = 'network' | 'not-found' | 'http' | 'too-large';

export type FetchBytesResult =
	| { ok: true; bytes: Uint8Array; finalUrl: string; contentType: string }
	| { ok: false; kind: FetchErrorKind; error: string };

export interface FetchBytesOptions {
	maximumBytes: number;
	init?: RequestInit;
	/** Said when the request itself fails (a TypeError): what to check next. */
	networkHint: string;
	/** What is being fetched, for the messages ("the scenario index"). */
	what: string;
}

export async function fetchBytes(
	url: string,
	fetcher: Fetcher,
	options: FetchBytesOptions
): Promise<FetchBytesResult> {
	let response: Response;
	try {
		response = await fetcher(url, options.init);
	} catch (error) {
		return networkFailure(error, options);
	}
	if (response.status === 404) {
		return {
			ok: false,
			kind: 'not-found',
			error: `${capitalize(options.what)} was not found (404 at ${url}).`
		};
	}
	if (!response.ok) {
		return {
			ok: false,
			kind: 'http',
			error: `${capitalize(options.what)} could not be loaded: the server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''} (${url}).`
		};
	}
	const tooLarge = {
		ok: false as const,
		kind: 'too-large' as const,
		error: `${capitalize(options.what)} is too large: more than ${megabytes(options.maximumBytes)}.`
	};
	const declared = Number(response.headers.get('content-length') ?? Number.NaN);
	if (Number.isFinite(declared) && declared > options.maximumBytes) {
		await response.body?.cancel().catch(() => undefined);
		return tooLarge;
	}
	let bytes: Uint8Array | null;
	try {
		bytes = await readAtMost(response, options.maximumBytes);
	} catch (error) {
		return networkFailure(error, options);
	}
	if (bytes === null) return tooLarge;
	return {
		ok: true,
		bytes,
		finalUrl: response.url || url,
		contentType: response.headers.get('content-type') ?? ''
	};
}

async function readAtMost(response: Response, maximumBytes: number): Promise<Uint8Array | null> {
	if (!response.body) {
		const whole = new Uint8Array(await response.arrayBuffer());
		return whole.length > maximumBytes ? null : whole;
	}
	const reader = response.body.getReader();
	const chunks: Uint8Array[] = [];
	let total = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		total += value.length;
		if (total > maximumBytes) {
			await reader.cancel().catch(() => undefined);
			return null;
		}
		chunks.push(value);
	}
	return concatenateBytes(chunks);
}

function networkFailure(error: unknown, options: FetchBytesOptions): FetchBytesResult {
	// fetch rejects with a TypeError for every network-level failure, CORS refusals included:
	// the page cannot tell them apart, so the message names the likely causes.
	const detail = error instanceof Error && error.message ? ` (${error.message})` : '';
	const cause = error instanceof TypeError ? options.networkHint : 'The request failed.';
	return {
		ok: false,
		kind: 'network',
		error: `${capitalize(options.what)} could not be fetched${detail}. ${cause}`
	};
}

function capitalize(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}

export function megabytes(bytes: number): string {
	return `${Math.round(bytes / (1024 * 1024))} MB`;
}
