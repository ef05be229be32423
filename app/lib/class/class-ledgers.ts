/** One ledger of the class as the server lists it to the instructor (GET /api/class/ledgers). */
export interface ClassLedgerSummary {
	ledger: string;
	learner: { id: string; name: string };
	/** The scenario the learner's IDE named when the ledger was born (null: older servers or unnamed). */
	scenario?: string | null;
	/** Histories sent into this ledger that another ledger already held (refused). */
	copies?: number;
	/** A later ledger of the same learner and scenario exists: this one was left behind. */
	abandoned?: boolean;
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
	if (!response.ok) throw new Error(refusal(base, response.status, body?.error));
	if (!body || !Array.isArray(body.ledgers) || !body.ledgers.every(isLedgerSummary)) {
		throw new Error(
			`${base || 'This app'} did not answer with a class's ledgers: is it a Threadline class server?`
		);
	}
	return body;
}

/** The server's own sentence with its status, or what the status means for a grader. */
function refusal(base: string, status: number, said: unknown): string {
	const where = base || 'The class server';
	if (typeof said === 'string' && said.trim()) return `${where} refused (${status}): ${said}.`;
	if (status === 404)
		return `${where} has no class API (404): class mode is off there, or the address is wrong.`;
	return `${where} answered ${status}.`;
}

function isLedgerSummary(value: unknown): value is ClassLedgerSummary {
	if (typeof value !== 'object' || value === null) return false;
	const entry = value as Record<string, unknown>;
	const learner = entry.learner as Record<string, unknown> | null | undefined;
	return (
		typeof entry.ledger === 'string' &&
		typeof learner === 'object' &&
		learner !== null &&
		typeof learner.name === 'string' &&
		['events', 'head_seq', 'mutations', 'blocked', 'forks', 'model_tool_calls'].every(
			(key) => typeof entry[key] === 'number'
		)
	);
}

/** One ledger's events as the server holds them, with refused appends (instructor token). */
export async function fetchClassLedger(
	url: string,
	token: string,
	ledger: string,
	fetcher: typeof fetch = (input, init) => globalThis.fetch(input, init)
): Promise<ClassLedgerSummary & { events: unknown[]; refused: unknown[] }> {
	const base = url.replace(/\/+$/, '');
	let response: Response;
	try {
		response = await fetcher(`${base}/api/class/ledgers/${encodeURIComponent(ledger)}/events`, {
			headers: { authorization: `Bearer ${token}` }
		});
	} catch (error) {
		throw new Error(`The class server at ${base || 'this app'} could not be reached.`, {
			cause: error
		});
	}
	const body = (await response.json().catch(() => null)) as {
		error?: string;
		events?: unknown;
	} | null;
	if (!response.ok) throw new Error(refusal(base, response.status, body?.error));
	if (!body || !Array.isArray(body.events))
		throw new Error(`${base || 'This app'} did not answer with the ledger's events.`);
	return body as ClassLedgerSummary & { events: unknown[]; refused: unknown[] };
}
