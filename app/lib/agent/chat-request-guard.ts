import type { ServerEnvironment } from './server-chat-handler.js';
import { concatenateBytes } from '../../../hooks/bytes/concatenate-bytes.js';

/**
 * What stands between the internet and the instructor's paid key on `/api/chat`: an optional
 * class passphrase (THREADLINE_CHAT_PASSPHRASE, sent as the `x-threadline-passphrase` header), a
 * request size cap (THREADLINE_CHAT_MAX_BYTES, default 1 MB) and a per-client rate limit
 * (THREADLINE_CHAT_RATE_PER_MINUTE, default 20). Server-only; no Node imports so it is testable
 * with plain Requests.
 */
export const passphraseHeader = 'x-threadline-passphrase';
const defaultMaximumBytes = 1024 * 1024;
const defaultRatePerMinute = 20;
const windowMs = 60_000;
/** Forget idle clients so the table cannot grow without bound. */
const maximumTrackedClients = 10_000;

export class ChatRequestGuard {
	private readonly recent = new Map<string, number[]>();

	constructor(private readonly now: () => number = () => Date.now()) {}

	/** The request to hand on (its body already read within the cap), or the refusal to send. */
	async admit(
		request: Request,
		client: string,
		environment: ServerEnvironment
	): Promise<{ ok: true; request: Request } | { ok: false; response: Response }> {
		const passphrase = environment.THREADLINE_CHAT_PASSPHRASE?.trim();
		if (passphrase && !sameText(request.headers.get(passphraseHeader) ?? '', passphrase)) {
			return refuse(
				401,
				'This class server needs the class passphrase: enter it in Settings (Server provider).'
			);
		}
		const rate = positive(environment.THREADLINE_CHAT_RATE_PER_MINUTE, defaultRatePerMinute);
		const wait = this.take(client, rate);
		if (wait > 0) {
			return refuse(
				429,
				`Too many requests from this computer (at most ${rate} a minute). Wait ${Math.ceil(wait / 1000)} s.`,
				{ 'retry-after': String(Math.ceil(wait / 1000)) }
			);
		}
		const maximumBytes = positive(environment.THREADLINE_CHAT_MAX_BYTES, defaultMaximumBytes);
		const declared = Number(request.headers.get('content-length') ?? '0');
		if (declared > maximumBytes) return tooLarge(maximumBytes);
		const body = await readCapped(request, maximumBytes);
		if (body === null) return tooLarge(maximumBytes);
		return {
			ok: true,
			request: new Request(request.url, { method: request.method, headers: request.headers, body })
		};
	}

	/** Milliseconds until this client may send again; 0 when the request is admitted. */
	private take(client: string, rate: number): number {
		const now = this.now();
		const times = (this.recent.get(client) ?? []).filter((time) => now - time < windowMs);
		if (times.length >= rate) {
			this.recent.set(client, times);
			return windowMs - (now - (times[0] ?? now));
		}
		times.push(now);
		this.recent.delete(client);
		this.recent.set(client, times);
		if (this.recent.size > maximumTrackedClients) {
			const oldest = this.recent.keys().next().value;
			if (oldest !== undefined) this.recent.delete(oldest);
		}
		return 0;
	}
}

async function readCapped(
	request: Request,
	maximumBytes: number
): Promise<Uint8Array<ArrayBuffer> | null> {
	if (!request.body) return new Uint8Array();
	const reader = request.body.getReader();
	const chunks: Uint8Array[] = [];
	let total = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		total += value.length;
		if (total > maximumBytes) {
			await reader.cancel();
			return null;
		}
		chunks.push(value);
	}
	return concatenateBytes(chunks);
}

function tooLarge(maximumBytes: number) {
	return refuse(
		413,
		`The conversation is larger than this server accepts (${Math.round(maximumBytes / 1024)} KB). Start a new session.`
	);
}

function refuse(
	status: number,
	message: string,
	headers: Record<string, string> = {}
): { ok: false; response: Response } {
	return {
		ok: false,
		response: new Response(JSON.stringify({ error: message }), {
			status,
			headers: { 'content-type': 'application/json', ...headers }
		})
	};
}

function positive(value: string | undefined, fallback: number): number {
	const parsed = Number(value);
	return Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}

/** Compares without stopping at the first difference, so timing does not leak the passphrase. */
function sameText(given: string, expected: string): boolean {
	const encoder = new TextEncoder();
	const left = encoder.encode(given);
	const right = encoder.encode(expected);
	let difference = left.length ^ right.length;
	for (let index = 0; index < right.length; index++)
		difference |= (left[index] ?? 0) ^ (right[index] ?? 0);
	return difference === 0;
}
