import { canonicalJson } from '../../../hooks/ledger/canonical-json.js';
import { fetchClassLedger, type ClassLedgerSummary } from '../class/class-ledgers.js';
import type { PickedFile } from './group-exports.js';

/**
 * The grader's desk's "Class" source: a ledger as the class server witnessed it becomes the same
 * thing a grader could drop, an `audit.jsonl` + `agent_trace.jsonl` pair in a folder named after
 * the learner, so it is verified, reported and scored by the one code path every export takes.
 * The server holds events, not workspaces: such a row is a ledger-only verify (the workspace's
 * files are not compared, and the desk says so) — a witnessed copy, which the learner cannot
 * have rewritten after the server received it.
 */
export function classLedgerFiles(
	summary: Pick<ClassLedgerSummary, 'ledger' | 'learner'>,
	events: readonly unknown[]
): PickedFile<Blob>[] {
	let audit = '';
	let trace = '';
	for (const event of events) {
		audit += canonicalJson(event) + '\n';
		if (isMutationRecord(event)) trace += canonicalJson(event.trace) + '\n';
	}
	const folder = classRowName(summary);
	const jsonl = (text: string) => new Blob([text], { type: 'application/x-ndjson' });
	return [
		{ path: `${folder}/audit.jsonl`, content: jsonl(audit) },
		{ path: `${folder}/agent_trace.jsonl`, content: jsonl(trace) }
	];
}

/**
 * The row's name: the learner's display name and the ledger id, made safe as one folder name
 * (a name is the learner's own text: no slashes, control characters or runaway length).
 */
export function classRowName(summary: Pick<ClassLedgerSummary, 'ledger' | 'learner'>): string {
	const clean = (text: string, limit: number) =>
		text.replace(unsafeInName, ' ').replace(/\s+/g, ' ').trim().slice(0, limit);
	const name = clean(summary.learner.name, 60) || 'learner';
	return `${name} (class ledger ${clean(summary.ledger, 40)})`;
}

/** Control characters and path separators: never part of a row's folder name. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
const unsafeInName = /[\u0000-\u001f\u007f/\\]+/g;

/** One sentence on what the server witnessed of this ledger, for the class table. */
export function witnessStatus(summary: ClassLedgerSummary): string {
	const witnessed =
		summary.events === 0
			? 'Nothing witnessed yet'
			: `Witnessed up to seq ${summary.head_seq} (${summary.events} event${summary.events === 1 ? '' : 's'})`;
	const refused =
		summary.forks > 0
			? `; refused ${summary.forks} append${summary.forks === 1 ? '' : 's'} that rewrote what it held`
			: '';
	const copies = summary.copies ?? 0;
	const copied =
		copies > 0
			? `; refused ${copies} histor${copies === 1 ? 'y' : 'ies'} another ledger already held (a rewrite or another learner's)`
			: '';
	const abandoned = summary.abandoned
		? '; abandoned: the learner has a later ledger for this scenario'
		: '';
	return `${witnessed}${refused}${copied}${abandoned}.`;
}

function isMutationRecord(event: unknown): event is { type: 'mutation-record'; trace: unknown } {
	return (
		typeof event === 'object' &&
		event !== null &&
		(event as { type?: unknown }).type === 'mutation-record' &&
		'trace' in event
	);
}

/**
 * The class server's origin as typed by the grader: empty for this app, else an http(s) URL
 * (its origin and path, no query). Anything else is refused before the token is sent anywhere.
 */
export function classServerBase(
	text: string
): { ok: true; base: string } | { ok: false; error: string } {
	const trimmed = text.trim();
	if (trimmed === '') return { ok: true, base: '' };
	let url: URL;
	try {
		url = new URL(trimmed);
	} catch {
		return {
			ok: false,
			error: `"${trimmed}" is not an address: write it as https://class.example.org, or leave it empty for this app.`
		};
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:')
		return {
			ok: false,
			error: `The class server is reached over https (or http on a local network), not ${url.protocol}`
		};
	if (url.username || url.password || url.search || url.hash)
		return {
			ok: false,
			error: 'Give the class server’s address only: no user name, query or #fragment.'
		};
	return { ok: true, base: `${url.origin}${url.pathname}`.replace(/\/+$/, '') };
}

export interface WitnessedLedgers {
	files: PickedFile<Blob>[];
	added: number;
	/** "<learner>: <why>", one per ledger that could not be fetched. */
	failed: string[];
}

/**
 * Fetches each ledger's witnessed copy, one at a time (a class of 60 must not open 60 requests
 * at once against the instructor's server), as files the desk grades. A ledger that cannot be
 * fetched is named and skipped; the others still come.
 */
export async function fetchWitnessedLedgers(
	base: string,
	token: string,
	ledgers: readonly ClassLedgerSummary[],
	onProgress: (done: number, total: number) => void = () => {},
	fetcher?: typeof fetch
): Promise<WitnessedLedgers> {
	const result: WitnessedLedgers = { files: [], added: 0, failed: [] };
	for (const [index, summary] of ledgers.entries()) {
		onProgress(index, ledgers.length);
		try {
			const held = await fetchClassLedger(base, token, summary.ledger, fetcher);
			result.files.push(...classLedgerFiles(summary, held.events));
			result.added += 1;
		} catch (error) {
			result.failed.push(
				`${summary.learner.name}: ${error instanceof Error ? error.message : String(error)}`
			);
		}
	}
	onProgress(ledgers.length, ledgers.length);
	return result;
}
