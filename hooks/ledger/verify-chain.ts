import { canonicalJsonPair } from './canonical-json.js';
import { genesisHash } from './ledger-event.js';
import { contentHash, type ContentHasher } from '../hashing/sha256.js';
import type { JsonlEntry } from './read-jsonl.js';

export interface ChainLinks {
	seq: number;
	prev_hash: string;
	hash: string;
}

/** How to read one chain: where its links sit in a line's value and how its hash is computed. */
export interface ChainKind {
	/** `audit.jsonl` or `agent_trace.jsonl`, for messages. */
	fileName: string;
	/** The links, or a plain reason why the value has none. */
	linksOf(value: unknown): ChainLinks | string;
	/** Where the hash sits: it is left out of the canonical text the hash covers. */
	hashPath: readonly string[];
}

export interface ChainCheck {
	intact: boolean;
	firstBrokenSeq: number | null;
	/** `audit.jsonl line 7: hash does not match its content`. */
	problem: string | null;
	/** The same with the seq, for the report's first failure: `audit.jsonl line 7 (seq 7): …`. */
	failure: string | null;
}

/** Lines whose hashes are computed at once; Web Crypto hashes off the main thread. */
const hashWindow = 64;

/** A line's checks that need no hash, and the hash still to compare. */
interface LineCheck {
	entry: JsonlEntry;
	links: ChainLinks;
	/** Resolves to the recomputed hash. */
	digest: Promise<string> | string;
	canonicalForm: boolean;
}

/**
 * Recomputes a chain and stops at the first broken link: a line that is not JSON, a seq gap, a
 * prev_hash that is not the previous line's hash, a hash that does not match the content, or a
 * line that is not in the canonical form the export writes. Every check of a line depends only
 * on that line and the previous line's stored hash, so the hashes of a window of lines are
 * started together and then compared in order (one digest at a time leaves the CPU idle while
 * Web Crypto works on another thread).
 */
export async function verifyChain(
	entries: readonly JsonlEntry[],
	kind: ChainKind,
	hasher: ContentHasher = contentHash
): Promise<ChainCheck> {
	let previousSeq = 0;
	let previousHash = genesisHash;
	for (let start = 0; start < entries.length; start += hashWindow) {
		const checks: LineCheck[] = [];
		let structural: ChainCheck | null = null;
		for (const entry of entries.slice(start, start + hashWindow)) {
			const expectedSeq = previousSeq + 1;
			if (entry.error !== undefined) {
				structural = broken(kind, entry, expectedSeq, entry.error);
				break;
			}
			const links = kind.linksOf(entry.value);
			if (typeof links === 'string') {
				structural = broken(kind, entry, expectedSeq, links);
				break;
			}
			if (links.seq !== expectedSeq) {
				structural = broken(
					kind,
					entry,
					links.seq,
					`seq gap: expected seq ${expectedSeq}, found ${links.seq}`
				);
				break;
			}
			if (links.prev_hash !== previousHash) {
				const reason =
					previousSeq === 0
						? 'prev_hash is not the genesis hash'
						: `prev_hash does not match the hash of seq ${previousSeq}`;
				structural = broken(kind, entry, links.seq, reason);
				break;
			}
			const canonical = canonicalJsonPair(entry.value, kind.hashPath);
			checks.push({
				entry,
				links,
				// sha256(prev_hash + canonical JSON without the hash), as hashAuditEvent and
				// hashTraceRecord compute it.
				digest: hasher(links.prev_hash + canonical.without),
				// Same content written differently (spacing, escapes, number form) would still hash
				// the same; the export only ever writes canonical lines, so anything else was edited.
				canonicalForm: canonical.full === entry.text
			});
			previousSeq = links.seq;
			previousHash = links.hash;
		}
		const digests = await Promise.all(checks.map((check) => check.digest));
		for (let position = 0; position < checks.length; position++) {
			const { entry, links, canonicalForm } = checks[position] as LineCheck;
			if (digests[position] !== links.hash) {
				return broken(kind, entry, links.seq, 'hash does not match its content');
			}
			if (!canonicalForm) {
				return broken(
					kind,
					entry,
					links.seq,
					'not in canonical JSON form (the line was rewritten)'
				);
			}
		}
		if (structural) return structural;
	}
	return { intact: true, firstBrokenSeq: null, problem: null, failure: null };
}

function broken(kind: ChainKind, entry: JsonlEntry, seq: number, reason: string): ChainCheck {
	return {
		intact: false,
		firstBrokenSeq: seq,
		problem: `${kind.fileName} line ${entry.line}: ${reason}`,
		failure: `${kind.fileName} line ${entry.line} (seq ${seq}): ${reason}`
	};
}

/** Reads `seq`, `prev_hash`, `hash` from an object, or says which is missing. */
export function readLinks(holder: unknown, where: string): ChainLinks | string {
	if (typeof holder !== 'object' || holder === null || Array.isArray(holder)) {
		return `${where} is not an object`;
	}
	const { seq, prev_hash: previousHash, hash } = holder as Record<string, unknown>;
	if (typeof seq !== 'number' || !Number.isInteger(seq)) return `${where} has no integer seq`;
	if (typeof previousHash !== 'string') return `${where} has no prev_hash`;
	if (typeof hash !== 'string') return `${where} has no hash`;
	return { seq, prev_hash: previousHash, hash };
}
