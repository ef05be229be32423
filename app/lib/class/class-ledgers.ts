/** One ledger of the class as the server lists it to the instructor (GET /api/class/ledgers). */
export interface ClassLedgerSummary {
	ledger: string;
	learner: { id: string; name: string };
	events: number;
	head_seq: number;
	head_hash: string;
	mutations: number;
	blocked: number;
	/** Appends the server refused because they did not extend its copy (forks, rewrites). */
	forks: number;
	model_tool_calls: number;
	created_at: string;
	updated_at: string;
}

export interface ClassLedgerListing {
	class: string;
	/** The witness public key (raw Ed25519, base64). */
	key: string;
	ledgers: ClassLedgerSummary[];
}

/**
 * The class's ledgers straight from the class server, for the grader's desk (`/grade`, "Class"
 * source). `url` is the server's origin (or '' for this app's own); `token` the instructor token.
 * Throws an Error whose message is a sentence for the grader.
 */
export async function listClassLedgers(
	url: string,
	token: string,
	fetcher: typeof fetch = (input, init) => globalThis.fetch(input, init)
): Promise<ClassLedgerListing> {
	const base = url.replace(/\/+$/, '');
	let response: Response;
	try {
		response = await fetcher(`${base}/api/class/ledgers`, {
			headers: { authorization: `Bearer ${token}` }
		});
	} catch (error) {
		throw new Error(`The class server at ${base || 'this app'} could not be reached.`, {
			cause: error
		});
	}
	const body = (await response.json().catch(() => null)) as
		(ClassLedgerListing & { error?: string }) | null;
	if (!response.ok || !body || !Array.isArray(body.ledgers)) {
		throw new Error(body?.error ?? `The class server answered ${response.status}.`);
	}
	return body;
}

/** One ledger's events as the server holds them, with refused appends (instructor token). */
export async function fetchClassLedger(
	url: string,
	token: string,
	ledger: string,
	fetcher: typeof fetch = (input, init) => globalThis.fetch(input, init)
): Promise<ClassLedgerSummary & { events: unknown[]; refused: unknown[] }> {
	const base = url.replace(/\/+$/, '');
	const response = await fetcher(`${base}/api/class/ledgers/${encodeURIComponent(ledger)}/events`, {
		headers: { authorization: `Bearer ${token}` }
	});
	const body = (await response.json().catch(() => null)) as { error?: string } | null;
	if (!response.ok || !body)
		throw new Error(body?.error ?? `The class server answered ${response.status}.`);
	return body as ClassLedgerSummary & { events: unknown[]; refused: unknown[] };
}
