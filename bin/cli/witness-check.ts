import { canonicalJson } from '../../hooks/ledger/canonical-json.js';

/** An audit event as read from an export or the server (untrusted: only plain fields are read). */
type EventValue = Record<string, unknown>;

export interface ReceiptProblem {
	/** The seq of the `witness-receipt` event. */
	seq: number;
	problem: string;
}

export interface ReceiptCheck {
	receipts: number;
	invalid: ReceiptProblem[];
	/** The ledger id the receipts name (the first one's), or null without receipts. */
	ledger: string | null;
	/** The learner the server bound the ledger to (id and name), from the receipts; null in older ones. */
	learner: { id: string; name: string | null } | null;
	/** The scenario the ledger was bound to at its first append, when the receipts name one. */
	scenario: string | null;
	/**
	 * How long after they were written the server first saw events (`received_at` minus the
	 * event's own timestamp): the longest such delay, and every run of events later than
	 * `noticeDelayMs` (reported) — those later than the allowed delay are in `invalid`.
	 */
	delays: { longestMs: number; late: { from: number; to: number; delayMs: number }[] };
	/**
	 * The certificate the server issued when the ledger was born, carried by its first event
	 * (ledgers born in class mode); null when the ledger was born before it was issued (bound at
	 * its first append only) or the certificate failed (then in `invalid`).
	 */
	birth: { ledger: string; learner: string; learnerName: string | null; issuedAt: string } | null;
	/** The highest seq a valid receipt covers whose head the export still holds; 0 when none. */
	witnessedSeq: number;
	/** Events after `witnessedSeq` other than receipts themselves: written but never witnessed. */
	notWitnessed: { from: number; to: number; count: number } | null;
}

/**
 * Checks every `witness-receipt` event of an export against the class key: the signature, that
 * the receipt came after the head it covers, and that the export still holds that head (the event
 * at `receipt.seq` has `receipt.head_hash`). Because each hash covers every earlier event, a valid
 * receipt vouches for the whole prefix up to its seq; a rewrite anywhere in that prefix changes
 * the head's hash and is caught here.
 */
export function checkReceipts(
	events: readonly unknown[],
	signatureValid: (receipt: unknown, signature: unknown) => boolean,
	options: ReceiptTimeOptions = {}
): ReceiptCheck {
	const bySeq = new Map<number, EventValue>();
	for (const event of events) {
		if (isObject(event) && typeof event.seq === 'number') bySeq.set(event.seq, event);
	}
	const invalid: ReceiptProblem[] = [];
	let receipts = 0;
	let ledger: string | null = null;
	let learner: ReceiptCheck['learner'] = null;
	let scenario: string | null = null;
	let witnessedSeq = 0;
	const maximumDelayMs = options.maximumDelayMs ?? defaultMaximumWitnessDelayMs;
	const noticeDelayMs = options.noticeDelayMs ?? defaultNoticeWitnessDelayMs;
	const delays: ReceiptCheck['delays'] = { longestMs: 0, late: [] };
	const firstHash = bySeq.get(1)?.hash;
	const birthCheck = checkBirthCertificate(bySeq, signatureValid);
	if (birthCheck.problem) invalid.push({ seq: 1, problem: birthCheck.problem });
	const birth = birthCheck.birth;
	for (const event of events) {
		if (!isObject(event) || event.type !== 'witness-receipt') continue;
		receipts++;
		const seq = Number(event.seq);
		const receipt = event.receipt;
		if (
			!isObject(receipt) ||
			typeof receipt.seq !== 'number' ||
			typeof receipt.ledger !== 'string'
		) {
			invalid.push({ seq, problem: 'the witness receipt has no ledger and seq' });
			continue;
		}
		if (!signatureValid(receipt, event.signature)) {
			invalid.push({
				seq,
				problem: 'the receipt’s signature is not the class key’s (forged or edited)'
			});
			continue;
		}
		ledger ??= receipt.ledger;
		if (receipt.ledger !== ledger) {
			invalid.push({
				seq,
				problem: `the receipt is for ledger ${receipt.ledger}, the earlier ones for ${ledger} (receipts copied from another ledger)`
			});
			continue;
		}
		if (receipt.seq >= seq) {
			invalid.push({
				seq,
				problem: `the receipt covers seq ${receipt.seq}, which is not before it`
			});
			continue;
		}
		const head = bySeq.get(receipt.seq);
		if (!head) {
			invalid.push({
				seq,
				problem: `the server witnessed seq ${receipt.seq}, which the export does not have (truncated)`
			});
			continue;
		}
		if (head.hash !== receipt.head_hash) {
			invalid.push({
				seq,
				problem: `seq ${receipt.seq} (or an event before it) was rewritten after the server witnessed it: its hash is not the witnessed head ${String(receipt.head_hash)}`
			});
			continue;
		}
		// The identity the server bound the ledger to at its first append (receipts since then
		// name it): this history's first event, and one learner for every receipt.
		if (receipt.genesis_hash !== undefined && receipt.genesis_hash !== firstHash) {
			invalid.push({
				seq,
				problem: `the receipt was signed for a history whose first event is ${String(receipt.genesis_hash).slice(0, 19)}…, not this export's (receipts moved to another history)`
			});
			continue;
		}
		if (birth && (receipt.ledger !== birth.ledger || receipt.learner !== birth.learner)) {
			invalid.push({
				seq,
				problem: `the receipt is for ledger ${receipt.ledger} of learner ${String(receipt.learner)}, but this history was born as ledger ${birth.ledger} of learner ${birth.learner} (moved to another ledger or learner)`
			});
			continue;
		}
		if (typeof receipt.learner === 'string') {
			if (learner && learner.id !== receipt.learner) {
				invalid.push({
					seq,
					problem: `the receipt is for learner ${receipt.learner}, the earlier ones for ${learner.id} (receipts of two learners)`
				});
				continue;
			}
			learner ??= {
				id: receipt.learner,
				name: typeof receipt.learner_name === 'string' ? receipt.learner_name : null
			};
		}
		if (typeof receipt.scenario === 'string') scenario ??= receipt.scenario;
		const timing = receiptTiming(bySeq, witnessedSeq, receipt.seq, receipt.received_at);
		if (timing.problem) {
			invalid.push({ seq, problem: timing.problem });
			continue;
		}
		if (timing.longestMs > maximumDelayMs) {
			invalid.push({
				seq,
				problem: `seq ${timing.from}–${receipt.seq} reached the server ${duration(timing.longestMs)} after they were written, more than the ${duration(maximumDelayMs)} allowed for offline work (a history made or kept back before it was sent)`
			});
			continue;
		}
		delays.longestMs = Math.max(delays.longestMs, timing.longestMs);
		if (timing.longestMs > noticeDelayMs) {
			delays.late.push({ from: timing.from, to: receipt.seq, delayMs: timing.longestMs });
		}
		witnessedSeq = Math.max(witnessedSeq, receipt.seq);
	}
	const after = events.filter(
		(event) =>
			isObject(event) && Number(event.seq) > witnessedSeq && event.type !== 'witness-receipt'
	) as EventValue[];
	const notWitnessed =
		after.length > 0
			? { from: Number(after[0]?.seq), to: Number(after.at(-1)?.seq), count: after.length }
			: null;
	return {
		receipts,
		invalid,
		ledger,
		learner,
		scenario,
		delays,
		birth,
		witnessedSeq,
		notWitnessed
	};
}

/**
 * The first event's `class_ledger` (a birth certificate the class server signed when it issued
 * the ledger): the class key's signature, its kind (so a receipt cannot pass for one), and no
 * event of the history dated before it (a history made earlier and moved into a fresh ledger).
 */
function checkBirthCertificate(
	bySeq: ReadonlyMap<number, EventValue>,
	signatureValid: (signed: unknown, signature: unknown) => boolean
): { birth: ReceiptCheck['birth']; problem: string | null } {
	const carried = bySeq.get(1)?.class_ledger;
	if (carried === undefined) return { birth: null, problem: null };
	const certificate = isObject(carried) ? carried.certificate : undefined;
	if (
		!isObject(carried) ||
		!isObject(certificate) ||
		certificate.kind !== ledgerBirthKind ||
		typeof certificate.ledger !== 'string' ||
		typeof certificate.learner !== 'string' ||
		typeof certificate.issued_at !== 'string'
	) {
		return {
			birth: null,
			problem: 'the ledger’s birth certificate is not one the class server issues'
		};
	}
	if (!signatureValid(certificate, carried.signature)) {
		return {
			birth: null,
			problem: 'the ledger’s birth certificate is not signed with the class key (forged or edited)'
		};
	}
	const issuedAt = Date.parse(certificate.issued_at);
	for (const [seq, event] of bySeq) {
		const written = typeof event.timestamp === 'string' ? Date.parse(event.timestamp) : Number.NaN;
		if (written < issuedAt - clockSkewMs) {
			return {
				birth: null,
				problem: `seq ${seq} says it was written at ${String(event.timestamp)}, before its ledger was issued (${certificate.issued_at}): a history made earlier was moved into this ledger`
			};
		}
	}
	return {
		birth: {
			ledger: certificate.ledger,
			learner: certificate.learner,
			learnerName: typeof certificate.learner_name === 'string' ? certificate.learner_name : null,
			issuedAt: certificate.issued_at
		},
		problem: null
	};
}

/** The `kind` of a ledger birth certificate (receipts have none: neither passes for the other). */
export const ledgerBirthKind = 'threadline-ledger-birth';

export interface ReceiptTimeOptions {
	/** Events the server first saw later than this after they were written fail (default 48 h). */
	maximumDelayMs?: number;
	/** Delays over this are reported, not failed (default 15 min). */
	noticeDelayMs?: number;
}

/**
 * Generous for offline work: a learner may work a weekend day without a connection, and the
 * witness sends it all when they are back. Longer than that, a history was kept back (or made up
 * afterwards) and the receipts no longer say when it happened.
 */
export const defaultMaximumWitnessDelayMs = 48 * 3_600_000;
export const defaultNoticeWitnessDelayMs = 15 * 60_000;
/** Clocks disagree: an event may seem up to this much later than the server's receipt of it. */
const clockSkewMs = 5 * 60_000;

/**
 * The events a receipt newly covers (after `witnessedBefore`, up to `headSeq`) against its time:
 * the longest delay between an event's own timestamp and the server's `received_at`, and a
 * problem when an event claims a time after the server already held it (timestamps made up).
 */
function receiptTiming(
	bySeq: ReadonlyMap<number, EventValue>,
	witnessedBefore: number,
	headSeq: number,
	receivedAt: unknown
): { longestMs: number; from: number; problem: string | null } {
	const received = typeof receivedAt === 'string' ? Date.parse(receivedAt) : Number.NaN;
	if (Number.isNaN(received)) {
		return {
			longestMs: 0,
			from: witnessedBefore + 1,
			problem: 'the receipt has no time it was received'
		};
	}
	let longestMs = 0;
	for (let seq = witnessedBefore + 1; seq <= headSeq; seq++) {
		const event = bySeq.get(seq);
		const written = typeof event?.timestamp === 'string' ? Date.parse(event.timestamp) : Number.NaN;
		if (Number.isNaN(written)) continue;
		if (written > received + clockSkewMs) {
			return {
				longestMs,
				from: witnessedBefore + 1,
				problem: `seq ${seq} says it was written at ${String(event?.timestamp)}, after the server received it (${String(receivedAt)}): its time was made up`
			};
		}
		longestMs = Math.max(longestMs, received - written);
	}
	return { longestMs, from: witnessedBefore + 1, problem: null };
}

/** "2 h 5 min", "3 min", "40 s". */
export function duration(milliseconds: number): string {
	const seconds = Math.round(milliseconds / 1000);
	if (seconds < 60) return `${seconds} s`;
	const minutes = Math.round(seconds / 60);
	if (minutes < 60) return `${minutes} min`;
	const hours = Math.floor(minutes / 60);
	return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

export interface ServerComparison {
	/** The first event whose content differs from the server's copy, with both hashes. */
	firstDifference: { seq: number; problem: string } | null;
	/** The server holds events the export lacks (the export was cut short). */
	truncated: { exportSeq: number; serverSeq: number } | null;
	/** Events the export has beyond the server's copy (written but not yet witnessed). */
	beyondServer: number;
	/** How many events agree with the server's copy, from the start. */
	matching: number;
}

/**
 * Compares an export's events with the server's copy of the same ledger, event by event in
 * canonical form: rewriting, dropping, reordering, relabelling and laundering (a history replayed
 * from scratch) all show as the first differing seq; a shorter export as truncation.
 */
export function compareWithServer(
	exported: readonly unknown[],
	server: readonly unknown[]
): ServerComparison {
	const shared = Math.min(exported.length, server.length);
	for (let index = 0; index < shared; index++) {
		const mine = exported[index];
		const theirs = server[index] as EventValue;
		if (safeCanonical(mine) !== safeCanonical(theirs)) {
			const seq = index + 1;
			const mineType = isObject(mine) ? String(mine.type) : typeof mine;
			return {
				firstDifference: {
					seq,
					problem: `seq ${seq} differs from the server’s copy (export: ${mineType} ${shortHash(mine)}; server: ${String(theirs.type)} ${shortHash(theirs)})`
				},
				truncated: null,
				beyondServer: 0,
				matching: index
			};
		}
	}
	return {
		firstDifference: null,
		truncated:
			server.length > exported.length
				? { exportSeq: exported.length, serverSeq: server.length }
				: null,
		beyondServer: Math.max(0, exported.length - server.length),
		matching: shared
	};
}

export interface ModelCallCheck {
	/** tool-call-start events whose id the model really returned, with the same name and arguments. */
	matched: number;
	/** Calls the model returned under that id with another tool or other arguments: forged. */
	mismatched: { seq: number; problem: string }[];
	/** AI-attributed changes whose tool call id the server's model never returned. */
	unwitnessedAiChanges: number;
}

/**
 * Checks the export's tool calls against the digests the server recorded from the model's
 * answers (Server provider only): a call id the model returned must carry the same tool name and
 * arguments hash in the ledger. AI changes whose call the server never saw came from another
 * provider (demo, a browser key): they are counted, not failed.
 */
export function checkModelCalls(
	exported: readonly unknown[],
	serverCalls: readonly { tool_call_id: string; tool_name: string; arguments_hash: string }[],
	argumentsHash: (input: unknown) => string
): ModelCallCheck {
	const calls = new Map(serverCalls.map((call) => [call.tool_call_id, call]));
	let matched = 0;
	let unwitnessedAiChanges = 0;
	const mismatched: { seq: number; problem: string }[] = [];
	for (const event of exported) {
		if (!isObject(event)) continue;
		if (event.type === 'tool-call-start' && typeof event.tool_call_id === 'string') {
			const call = calls.get(event.tool_call_id);
			if (!call) continue;
			if (call.tool_name !== event.tool || call.arguments_hash !== argumentsHash(event.input)) {
				mismatched.push({
					seq: Number(event.seq),
					problem: `tool call ${event.tool_call_id} is not what the model returned (the model called ${call.tool_name} with other arguments)`
				});
			} else matched++;
		}
		if (event.type === 'mutation-record' && isObject(event.trace)) {
			const metadata = (event.trace.metadata as EventValue | undefined)?.['dev.threadline'];
			const files = event.trace.files as EventValue[] | undefined;
			const contributor = (
				(files?.[0]?.conversations as EventValue[] | undefined)?.[0]?.contributor as
					EventValue | undefined
			)?.type;
			const callId = isObject(metadata) ? metadata.tool_call_id : undefined;
			if (contributor === 'ai' && (typeof callId !== 'string' || !calls.has(callId))) {
				unwitnessedAiChanges++;
			}
		}
	}
	return { matched, mismatched, unwitnessedAiChanges };
}

function isObject(value: unknown): value is EventValue {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function safeCanonical(value: unknown): string {
	try {
		return canonicalJson(value);
	} catch {
		return `unreadable:${String(value)}`;
	}
}

function shortHash(value: unknown): string {
	const hash = isObject(value) ? value.hash : undefined;
	return typeof hash === 'string' ? hash.slice(0, 19) + '…' : '(no hash)';
}
