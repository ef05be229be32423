import { UsageError } from './usage-error.js';

/** The class server's answers the witnessed verify reads. */
export interface ServerLedgerCopy {
	ledger: string;
	events: unknown[];
	refused: { reason: string; received_at: string }[];
	model_tool_calls: { tool_call_id: string; tool_name: string; arguments_hash: string }[];
	learner: { id?: string; name: string };
	scenario?: string | null;
	/** Histories sent into this ledger that another held, and this one's history sent elsewhere (refused). */
	copies?: {
		ledger: string;
		learner: { name: string };
		original_ledger: string;
		original_learner: { name: string };
		kind: 'copy' | 'rewrite';
		from_seq: number;
	}[];
	/** Every ledger of the same learner, abandoned ones included (older servers: absent). */
	learner_ledgers?: {
		ledger: string;
		scenario: string | null;
		head_seq: number;
		abandoned: boolean;
		created_at: string;
		updated_at: string;
	}[];
}

/** `http://host:port` or any URL under it → the server's origin. */
function originOf(url: string): string {
	try {
		return new URL(url).origin;
	} catch {
		throw new UsageError(`"${url}" is not a URL (expected e.g. https://class.example.org)`);
	}
}

async function getJson(url: string, token?: string): Promise<unknown> {
	let response: Response;
	try {
		response = await fetch(url, {
			headers: token ? { authorization: `Bearer ${token}` } : {},
			signal: AbortSignal.timeout(30_000)
		});
	} catch (error) {
		throw new UsageError(`cannot reach the class server at ${url}: ${(error as Error).message}`);
	}
	const body = (await response.json().catch(() => null)) as { error?: string } | null;
	if (!response.ok) {
		throw new UsageError(
			`${url} answered ${response.status}: ${body?.error ?? response.statusText}`
		);
	}
	return body;
}

/** The witness key: base64 of the raw 32 bytes as given, or fetched from a class server URL. */
export async function resolveWitnessKey(keyOrUrl: string): Promise<string> {
	if (!/^https?:\/\//i.test(keyOrUrl)) return keyOrUrl;
	const body = (await getJson(`${originOf(keyOrUrl)}/api/class/key`)) as { key?: unknown };
	if (typeof body?.key !== 'string') throw new UsageError(`${keyOrUrl} published no key`);
	return body.key;
}

export async function fetchLedgerCopy(
	serverUrl: string,
	token: string,
	ledger: string
): Promise<ServerLedgerCopy> {
	return (await getJson(
		`${originOf(serverUrl)}/api/class/ledgers/${encodeURIComponent(ledger)}/events`,
		token
	)) as ServerLedgerCopy;
}

/**
 * The server's ledger an export claims to be, when the export names none (it has no receipts):
 * the ledger whose first event is the export's first event. Null when the server never saw it.
 */
export async function findLedgerByFirstEvent(
	serverUrl: string,
	token: string,
	firstHash: string
): Promise<string | null> {
	const listing = (await getJson(`${originOf(serverUrl)}/api/class/ledgers`, token)) as {
		ledgers?: { ledger: string; head_seq: number; genesis_hash?: string | null }[];
	};
	// The server binds each ledger to its first event's hash: one listing answers it.
	const bound = listing.ledgers?.find((entry) => entry.genesis_hash === firstHash);
	if (bound) return bound.ledger;
	for (const entry of listing.ledgers ?? []) {
		// Only ledgers stored before ledgers were bound need their first event read.
		if (entry.head_seq < 1 || typeof entry.genesis_hash === 'string') continue;
		const copy = await fetchLedgerCopy(serverUrl, token, entry.ledger);
		const first = copy.events[0] as { hash?: unknown } | undefined;
		if (first?.hash === firstHash) return entry.ledger;
	}
	return null;
}
