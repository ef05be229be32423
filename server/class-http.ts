import { bytesInWords } from './class-config.js';
import type { ClassAnswer, ClassService } from './class-service.js';
import { bearerToken } from './tokens.js';

/** The class API's routes (under /api/class/). */
export type ClassRoute =
	| { name: 'key' }
	| { name: 'join' }
	| { name: 'ledgers' }
	| { name: 'events'; ledger: string }
	| { name: 'head'; ledger: string }
	| { name: 'attestation'; ledger: string }
	| { name: 'log-checkpoint' }
	| { name: 'log-proof'; kind: 'inclusion' | 'consistency' };

/**
 * One class API request in, one JSON response out: method check, body size cap, JSON parsing,
 * bearer token, then the service. Shared by the SvelteKit routes and the tests' plain server.
 */
export async function handleClassRequest(
	service: ClassService | null,
	request: Request,
	route: ClassRoute,
	address: string
): Promise<Response> {
	if (!service) {
		return json({
			status: 404,
			body: {
				error:
					'class mode is off on this server (set THREADLINE_CLASS_CODE and THREADLINE_INSTRUCTOR_TOKEN)'
			}
		});
	}
	const token = bearerToken(request.headers.get('authorization'));
	const method = request.method.toUpperCase();
	const allowed =
		route.name === 'join' || route.name === 'events' || route.name === 'ledgers'
			? ['GET', 'POST']
			: ['GET'];
	if (route.name === 'join' && method !== 'POST') return methodNotAllowed(['POST']);
	if (!allowed.includes(method)) return methodNotAllowed(allowed);
	try {
		switch (route.name) {
			case 'key':
				return json(service.key());
			case 'join': {
				const body = await readJson(request, 16 * 1024);
				if ('status' in body) return json(body);
				return json(await service.join(body.value, address));
			}
			case 'ledgers': {
				if (method === 'GET') return json(await service.listLedgers(token, address));
				const body = await readJson(request, 16 * 1024);
				if ('status' in body) return json(body);
				return json(await service.issueLedger(token, body.value, address));
			}
			case 'attestation':
				return json(await service.attestLedger(token, route.ledger, address));
			case 'head':
				return json(await service.head(token, route.ledger, address));
			case 'log-checkpoint': {
				const result = await service.logCheckpoint(address);
				return typeof result.body === 'string'
					? new Response(result.body, { status: result.status, headers: result.headers })
					: json(result);
			}
			case 'log-proof':
				return json(await service.logProof(route.kind, new URL(request.url).searchParams, address));
			case 'events': {
				if (method === 'GET') return json(await service.ledgerEvents(token, route.ledger, address));
				// Authenticate before reading a large body from a stranger.
				if (!token) {
					return json({
						status: 401,
						body: { error: 'send your learner token: Authorization: Bearer <token>' }
					});
				}
				const body = await readJson(request, service.config.limits.maxBodyBytes);
				if ('status' in body) return json(body);
				return json(await service.append(token, route.ledger, body.value, address));
			}
		}
	} catch (error) {
		// The store's or the key's failure: say so without leaking internals to the client.
		console.error(`class API ${route.name}: ${(error as Error).stack ?? String(error)}`);
		return json({
			status: 503,
			body: { error: 'the class server could not store or read that; retry later' }
		});
	}
}

function json(result: ClassAnswer): Response {
	return new Response(JSON.stringify(result.body), {
		status: result.status,
		headers: {
			'content-type': 'application/json; charset=utf-8',
			'cache-control': 'no-store',
			...result.headers
		}
	});
}

function methodNotAllowed(allowed: string[]): Response {
	return new Response(JSON.stringify({ error: `use ${allowed.join(' or ')}` }), {
		status: 405,
		headers: { 'content-type': 'application/json; charset=utf-8', allow: allowed.join(', ') }
	});
}

/** Reads at most `maxBytes` of body and parses it; stops reading as soon as the cap is passed. */
export async function readJson(
	request: Request,
	maxBytes: number
): Promise<{ value: unknown } | ClassAnswer> {
	const tooLarge: ClassAnswer = {
		status: 413,
		body: {
			error: 'body_too_large',
			message: `The request is larger than the class server accepts in one request (${bytesInWords(maxBytes)}): send fewer events at a time.`,
			max_body_bytes: maxBytes
		},
		// The unread rest of the body is still on the connection: it must not carry another request.
		headers: { connection: 'close' }
	};
	const declared = Number(request.headers.get('content-length') ?? '0');
	if (declared > maxBytes) return tooLarge;
	if (!request.body) return { status: 400, body: { error: 'the request has no body' } };
	const reader = request.body.getReader();
	const chunks: Uint8Array[] = [];
	let size = 0;
	for (;;) {
		let read: ReadableStreamReadResult<Uint8Array>;
		try {
			read = await reader.read();
		} catch (error) {
			// adapter-node ends the body with a 413 error past its BODY_SIZE_LIMIT: the same answer
			// as ours, never a "retry later" for a request that can never fit.
			if ((error as { status?: unknown } | null)?.status === 413) return tooLarge;
			throw error;
		}
		const { done, value } = read;
		if (done) break;
		size += value.byteLength;
		if (size > maxBytes) {
			await reader.cancel().catch(() => undefined);
			return tooLarge;
		}
		chunks.push(value);
	}
	const bytes = new Uint8Array(size);
	let offset = 0;
	for (const chunk of chunks) {
		bytes.set(chunk, offset);
		offset += chunk.byteLength;
	}
	try {
		return { value: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) };
	} catch {
		return { status: 400, body: { error: 'the request body is not UTF-8 JSON' } };
	}
}

/** The class route of a path under /api/class/, or null. */
export function classRouteOf(pathname: string): ClassRoute | null {
	const parts = pathname
		.replace(/^\/api\/class\/?/, '')
		.split('/')
		.filter(Boolean);
	if (parts.length === 1 && parts[0] === 'key') return { name: 'key' };
	if (parts.length === 1 && parts[0] === 'join') return { name: 'join' };
	if (parts.length === 1 && parts[0] === 'ledgers') return { name: 'ledgers' };
	if (parts.length === 3 && parts[0] === 'ledgers' && parts[2] === 'events') {
		return { name: 'events', ledger: decodeURIComponent(parts[1] as string) };
	}
	if (parts.length === 3 && parts[0] === 'ledgers' && parts[2] === 'attestation') {
		return { name: 'attestation', ledger: decodeURIComponent(parts[1] as string) };
	}
	if (parts.length === 3 && parts[0] === 'ledgers' && parts[2] === 'head') {
		return { name: 'head', ledger: decodeURIComponent(parts[1] as string) };
	}
	if (parts.length === 2 && parts[0] === 'log' && parts[1] === 'checkpoint')
		return { name: 'log-checkpoint' };
	if (
		parts.length === 3 &&
		parts[0] === 'log' &&
		parts[1] === 'proof' &&
		(parts[2] === 'inclusion' || parts[2] === 'consistency')
	)
		return { name: 'log-proof', kind: parts[2] };
	return null;
}
