import { lineForm, type LineForm, type MemberRange } from './canonical-json.js';
import { genesisHash } from './ledger-event.js';
import type { SyncContentHasher } from '../hashing/sync-sha256.js';
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

/**
 * Where a chain verified in parts (verify-parts.ts) meets its neighbours: the links of a part's
 * first line, which an open verifier could not check against the line before it, and the links of
 * its last accepted line, which the next part's first line must continue.
 */
export interface ChainEnds {
	/** The first line's file line number and links; null unless the verifier was open and got there. */
	opening: { line: number; seq: number; prevHash: string } | null;
	/** The last line accepted; null when none was. */
	closing: { seq: number; hash: string } | null;
	/**
	 * An open verifier's first line broke the chain before its links could be read (not JSON, no
	 * seq): the seq to report is the line before's plus one, which only the caller knows.
	 */
	unopenedBreak: { line: number; reason: string } | null;
}

export interface ChainCheck {
	intact: boolean;
	firstBrokenSeq: number | null;
	/** `audit.jsonl line 7: hash does not match its content`. */
	problem: string | null;
	/** The same with the seq, for the report's first failure: `audit.jsonl line 7 (seq 7): …`. */
	failure: string | null;
}

/**
 * Recomputes one chain line by line and stops at the first broken link: a line that is not JSON,
 * a seq gap, a prev_hash that is not the previous line's hash, a hash that does not match the
 * content, or a line that is not in the canonical form the export writes. Lines are fed in order
 * (`check`), so a caller can stream a file through it; the hash is one synchronous SHA-256 per
 * line.
 */
export class ChainVerifier {
	readonly #kind: ChainKind;
	readonly #hasher: SyncContentHasher;
	#previousSeq = 0;
	#previousHash = genesisHash;
	#broken: ChainCheck | null = null;
	/** No line has been checked yet and the one before it is in another part (see ChainEnds). */
	#open: boolean;
	#opening: ChainEnds['opening'] = null;
	#unopenedBreak: ChainEnds['unopenedBreak'] = null;
	#accepted = false;

	/**
	 * `open`: the lines are a part of the file that does not start at its first line, so the first
	 * line's seq and prev_hash are kept (`ends`) for the caller to check against the part before.
	 */
	constructor(kind: ChainKind, hasher: SyncContentHasher, options: { open?: boolean } = {}) {
		this.#kind = kind;
		this.#hasher = hasher;
		this.#open = options.open ?? false;
	}

	get ends(): ChainEnds {
		return {
			opening: this.#opening,
			closing: this.#accepted ? { seq: this.#previousSeq, hash: this.#previousHash } : null,
			unopenedBreak: this.#unopenedBreak
		};
	}

	/** True once a line broke the chain; later lines are not checked. */
	get broken(): boolean {
		return this.#broken !== null;
	}

	get result(): ChainCheck {
		return this.#broken ?? { intact: true, firstBrokenSeq: null, problem: null, failure: null };
	}

	/**
	 * Checks the next line. `form` is the line's canonical form when the caller already knows it
	 * (see `lineForm`); otherwise it is computed here. Returns false when the chain is broken.
	 */
	check(entry: JsonlEntry, form?: LineForm): boolean {
		if (this.#broken) return false;
		const kind = this.#kind;
		const expectedSeq = this.#previousSeq + 1;
		if (entry.error !== undefined) return this.#break(entry, expectedSeq, entry.error);
		const links = kind.linksOf(entry.value);
		if (typeof links === 'string') return this.#break(entry, expectedSeq, links);
		if (this.#open) {
			// The line before is another part's: the caller checks these links against it.
			this.#open = false;
			this.#opening = { line: entry.line, seq: links.seq, prevHash: links.prev_hash };
		} else {
			const problem = linkProblem({ seq: this.#previousSeq, hash: this.#previousHash }, links);
			if (problem) return this.#break(entry, problem.seq, problem.reason);
		}
		let known = form;
		if (!known) {
			const computed = safeLineForm(entry.text, entry.value, kind.hashPath);
			if (typeof computed === 'string') return this.#break(entry, links.seq, computed);
			known = computed;
		}
		// sha256(prev_hash + canonical JSON without the hash), as hashAuditEvent and hashTraceRecord
		// compute it: from the line's own bytes when the text without the hash was cut out of an
		// ASCII line, else from the text.
		const message =
			(known.cut && entry.bytes && cutBytes(links.prev_hash, entry.bytes, known.cut)) ||
			links.prev_hash + known.without;
		if (this.#hasher(message) !== links.hash) {
			return this.#break(entry, links.seq, 'hash does not match its content');
		}
		// Same content written differently (spacing, escapes, number form, key order) would still
		// hash the same; the export only ever writes canonical lines, so anything else was edited.
		if (!known.canonical) {
			return this.#break(entry, links.seq, 'not in canonical JSON form (the line was rewritten)');
		}
		this.#previousSeq = links.seq;
		this.#previousHash = links.hash;
		this.#accepted = true;
		return true;
	}

	#break(entry: JsonlEntry, seq: number, reason: string): false {
		if (this.#open) this.#unopenedBreak = { line: entry.line, reason };
		this.#broken = brokenChain(this.#kind.fileName, entry.line, seq, reason);
		return false;
	}
}

/**
 * Why a line's seq and prev_hash do not follow the line before (`previous`: its seq and hash, seq 0
 * and the genesis hash before the first line), with the seq to report; null when they follow.
 */
export function linkProblem(
	previous: { seq: number; hash: string },
	links: { seq: number; prev_hash: string }
): { seq: number; reason: string } | null {
	const expectedSeq = previous.seq + 1;
	if (links.seq !== expectedSeq)
		return { seq: links.seq, reason: `seq gap: expected seq ${expectedSeq}, found ${links.seq}` };
	if (links.prev_hash !== previous.hash) {
		const reason =
			previous.seq === 0
				? 'prev_hash is not the genesis hash'
				: `prev_hash does not match the hash of seq ${previous.seq}`;
		return { seq: links.seq, reason };
	}
	return null;
}

/** Reused for every line's message: grown for a longer one, never shrunk. */
let messageBuffer = new Uint8Array(1 << 12);

/**
 * The UTF-8 bytes of `prefix + text-without-cut`, written from the line's bytes: `bytes` are an
 * ASCII line's, one byte a character of its text, so the text's range is the same range of bytes.
 * That is what encoding the text would give, without encoding it (a fifth of verify's hashing
 * time in Chromium). Null when the prefix is not ASCII: it is the previous line's checked hash,
 * `sha256:<hex>`, whenever a hash is computed, so this is never expected. Valid until the next
 * call.
 */
function cutBytes(prefix: string, bytes: Uint8Array, [start, end]: MemberRange): Uint8Array | null {
	const length = prefix.length + bytes.length - (end - start);
	if (messageBuffer.length < length) messageBuffer = new Uint8Array(length * 2);
	const buffer = messageBuffer;
	for (let index = 0; index < prefix.length; index++) {
		const code = prefix.charCodeAt(index);
		if (code >= 0x80) return null;
		buffer[index] = code;
	}
	let at = prefix.length;
	buffer.set(bytes.subarray(0, start), at);
	at += start;
	buffer.set(bytes.subarray(end), at);
	at += bytes.length - end;
	return buffer.subarray(0, at);
}

/** lineForm, or why the value has no canonical form (e.g. a number too large for JSON, 1e999). */
export function safeLineForm(
	text: string,
	value: unknown,
	hashPath: readonly string[]
): LineForm | string {
	try {
		return lineForm(text, value, hashPath);
	} catch (error) {
		return `has no canonical JSON form (${(error as Error).message})`;
	}
}

/** A chain broken at a file's line, as the report names it. */
export function brokenChain(
	fileName: string,
	line: number,
	seq: number,
	reason: string
): ChainCheck {
	return {
		intact: false,
		firstBrokenSeq: seq,
		problem: `${fileName} line ${line}: ${reason}`,
		failure: `${fileName} line ${line} (seq ${seq}): ${reason}`
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
