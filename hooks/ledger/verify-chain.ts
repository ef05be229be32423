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

	constructor(kind: ChainKind, hasher: SyncContentHasher) {
		this.#kind = kind;
		this.#hasher = hasher;
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
		if (links.seq !== expectedSeq) {
			return this.#break(
				entry,
				links.seq,
				`seq gap: expected seq ${expectedSeq}, found ${links.seq}`
			);
		}
		if (links.prev_hash !== this.#previousHash) {
			const reason =
				this.#previousSeq === 0
					? 'prev_hash is not the genesis hash'
					: `prev_hash does not match the hash of seq ${this.#previousSeq}`;
			return this.#break(entry, links.seq, reason);
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
		return true;
	}

	#break(entry: JsonlEntry, seq: number, reason: string): false {
		this.#broken = broken(this.#kind, entry, seq, reason);
		return false;
	}
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
