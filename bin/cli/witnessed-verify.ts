import { readJsonl } from '../../hooks/ledger/read-jsonl.js';
import { argumentsHash } from '../../server/class-service.js';
import { receiptSignatureValid } from '../../server/witness/receipt.js';
import { publicKeyFromBase64 } from '../../server/witness/signing-key.js';
import { verify as verifyEd25519 } from 'node:crypto';
import type { VerifySignature } from '../../hooks/witness/signed-note.js';
import { checkLogAgainstServer, checkReceiptLogs, type ClassLogCheck } from './class-log-check.js';
import { UsageError } from './usage-error.js';
import {
	checkModelCalls,
	checkReceipts,
	compareWithServer,
	duration,
	type ModelCallCheck,
	type ReceiptCheck,
	type ServerComparison
} from './witness-check.js';
import {
	fetchLedgerCopy,
	findLedgerByFirstEvent,
	resolveWitnessKey,
	type ServerLedgerCopy
} from './witness-source.js';

export interface WitnessOptions {
	/** base64 key or a class server URL (`--witness-key`). */
	key?: string;
	/** The class server (`--witness`), read with the instructor `token`. */
	server?: string;
	token?: string;
	/** The server's ledger id, when the export has no receipts naming it (`--ledger`). */
	ledger?: string;
	/**
	 * Events after the last receipt are accepted as "not witnessed" instead of failing
	 * (`--allow-unwitnessed-tail`: an export taken while the witness was still sending).
	 */
	allowUnwitnessedTail?: boolean;
	/** Events the server first saw later than this after they were written fail (`--witness-delay <hours>`). */
	maximumDelayMs?: number;
}

export interface WitnessReport {
	ok: boolean;
	/** The first failure in words, e.g. `seq 7 differs from the server's copy (…)`. */
	firstFailure: string | null;
	receipts: ReceiptCheck;
	server: {
		url: string;
		ledger: string | null;
		learner: string | null;
		comparison: ServerComparison | null;
		refused: number;
		modelCalls: ModelCallCheck | null;
	} | null;
	/** Plain-words lines for the terminal. */
	lines: string[];
}

/**
 * Witnessed verify: the export's receipts against the class key and, with a server, the export
 * against the server's own copy of the ledger and the model's recorded tool calls.
 */
export async function witnessedVerify(
	auditJsonl: string,
	options: WitnessOptions
): Promise<WitnessReport> {
	if (options.server && !options.token) {
		throw new UsageError('--witness <url> needs --token <instructor token>');
	}
	const keyText = await resolveWitnessKey(options.key ?? options.server ?? '');
	let key;
	try {
		key = publicKeyFromBase64(keyText);
	} catch (error) {
		throw new UsageError(`--witness-key: ${(error as Error).message}`);
	}
	const events = readJsonl(auditJsonl).map((entry) => entry.value ?? null);
	const receipts = checkReceipts(
		events,
		(receipt, signature) => receiptSignatureValid(receipt, signature, key),
		{ maximumDelayMs: options.maximumDelayMs }
	);
	const lines: string[] = [];
	const failures: string[] = [];
	lines.push(
		`  witness:       ${receipts.receipts} receipt(s), ${receipts.invalid.length} invalid; witnessed up to seq ${receipts.witnessedSeq}`
	);
	const rawKey = new Uint8Array(Buffer.from(keyText.trim(), 'base64'));
	const verifyNote: VerifySignature = (message, signature, publicKey) => {
		try {
			return verifyEd25519(
				null,
				message,
				publicKeyFromBase64(Buffer.from(publicKey).toString('base64')),
				signature
			);
		} catch {
			return false;
		}
	};
	const log: ClassLogCheck = checkReceiptLogs(events, rawKey, verifyNote, (receipt, signature) =>
		receiptSignatureValid(receipt, signature, key)
	);
	if (log.checked > 0 || log.problems.length > 0) {
		lines.push(
			`  class log:     ${log.checked} receipt(s) included in signed checkpoints; ${log.consistent} checkpoint step(s) proven consistent by the browser${log.unproven > 0 ? `, ${log.unproven} not (checked against the server with --witness)` : ''}`
		);
	}
	for (const problem of log.problems.slice(0, 10)) {
		lines.push(`    seq ${problem.seq}: ${problem.problem}`);
		failures.push(`class log at seq ${problem.seq}: ${problem.problem}`);
	}
	if (receipts.birth) {
		lines.push(
			`  born:          ledger ${receipts.birth.ledger}, issued by the class server to ${receipts.birth.learnerName ?? receipts.birth.learner} at ${receipts.birth.issuedAt}`
		);
	} else if (receipts.receipts > 0) {
		lines.push(
			'  born:          before the class server issued it (no birth certificate): bound to its learner at its first append'
		);
	}
	if (receipts.learner) {
		lines.push(
			`  witnessed for: ${receipts.learner.name ?? '(no name)'} (learner ${receipts.learner.id}), ledger ${receipts.ledger}${receipts.scenario ? `, scenario ${receipts.scenario}` : ''}`
		);
	} else if (receipts.ledger) {
		lines.push(
			`  witnessed for: ledger ${receipts.ledger} (receipts from before ledgers were bound to a learner)`
		);
	}
	for (const invalid of receipts.invalid.slice(0, 10)) {
		lines.push(`    seq ${invalid.seq}: ${invalid.problem}`);
		failures.push(`witness receipt at seq ${invalid.seq}: ${invalid.problem}`);
	}
	for (const late of receipts.delays.late.slice(0, 10)) {
		lines.push(
			`    late: seq ${late.from}–${late.to} reached the server ${duration(late.delayMs)} after they were written (offline, or kept back)`
		);
	}
	if (receipts.notWitnessed) {
		const tail = `${receipts.notWitnessed.count} event(s), seq ${receipts.notWitnessed.from}–${receipts.notWitnessed.to}, after the last receipt were never witnessed`;
		lines.push(
			`  not witnessed: ${tail}${options.allowUnwitnessedTail ? ' (accepted: --allow-unwitnessed-tail)' : ''}`
		);
		// Nothing witnessed at all is its own failure, below.
		if (!options.allowUnwitnessedTail && receipts.witnessedSeq > 0) {
			failures.push(
				`${tail}; pass --allow-unwitnessed-tail to accept an export taken before the witness caught up`
			);
		}
	}

	let server: WitnessReport['server'] = null;
	if (options.server && log.last) {
		const origin = new URL(options.server).origin;
		const checked = await checkLogAgainstServer(
			origin,
			log.last,
			rawKey,
			verifyNote,
			async (url) => {
				const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
				if (!response.ok) throw new UsageError(`${url} answered ${response.status}`);
				return response.text();
			}
		);
		if (checked.problem) {
			failures.push(`class log: ${checked.problem}`);
			lines.push(`    LOG REWRITTEN: ${checked.problem}`);
		} else {
			lines.push(
				`  class log:     the server's log (${checked.current?.size} leaves) extends the checkpoint of ${log.last.size} this export saw`
			);
		}
	}
	if (options.server && options.token) {
		const firstHash = (events[0] as { hash?: unknown } | null)?.hash;
		const ledger =
			options.ledger ??
			receipts.ledger ??
			(typeof firstHash === 'string'
				? await findLedgerByFirstEvent(options.server, options.token, firstHash)
				: null);
		server = {
			url: options.server,
			ledger,
			learner: null,
			comparison: null,
			refused: 0,
			modelCalls: null
		};
		if (!ledger) {
			failures.push(
				'the class server holds no ledger this export continues: it was never witnessed (replayed from scratch?)'
			);
			lines.push(`  server:        ${failures.at(-1)}`);
		} else {
			const copy: ServerLedgerCopy = await fetchLedgerCopy(options.server, options.token, ledger);
			const comparison = compareWithServer(events, copy.events);
			const modelCalls = checkModelCalls(events, copy.model_tool_calls, argumentsHash);
			server = {
				...server,
				learner: copy.learner.name,
				comparison,
				refused: copy.refused.length,
				modelCalls
			};
			lines.push(
				`  server copy:   ledger ${ledger} of ${copy.learner.name}: ${copy.events.length} event(s), ${comparison.matching} match the export`
			);
			if (receipts.learner && copy.learner.id && receipts.learner.id !== copy.learner.id) {
				failures.push(
					`the receipts name learner ${receipts.learner.id}, the server's ledger ${ledger} belongs to ${copy.learner.name}`
				);
				lines.push(`    ${failures.at(-1)}`);
			}
			if (!receipts.ledger) {
				// No receipts: the server found this history by its first event.
				lines.push(
					`    this history was first witnessed for ${copy.learner.name} (ledger ${ledger}); this export carries no receipt of its own`
				);
			}
			if (comparison.firstDifference) {
				const rewrites = `this export rewrites ledger ${ledger} from seq ${comparison.firstDifference.seq}`;
				failures.push(`rewritten: ${rewrites}: ${comparison.firstDifference.problem}`);
				lines.push(`    REWRITTEN: ${rewrites}: ${comparison.firstDifference.problem}`);
			}
			for (const copied of (copy.copies ?? []).slice(0, 10)) {
				lines.push(
					copied.original_ledger === ledger
						? `    ${copied.learner.name} sent this history again into ledger ${copied.ledger} (${copied.kind === 'rewrite' ? `rewritten from seq ${copied.from_seq}` : 'a copy'}; refused)`
						: `    this ledger was offered a history first witnessed for ${copied.original_learner.name} (ledger ${copied.original_ledger}; ${copied.kind}; refused)`
				);
			}
			const others = (copy.learner_ledgers ?? []).filter(
				(entry) =>
					entry.ledger !== ledger &&
					entry.head_seq > 0 &&
					(copy.scenario ?? null) === (entry.scenario ?? null)
			);
			if (others.length > 0) {
				lines.push(
					`    ${copy.learner.name} has ${others.length} other ledger(s) for this scenario: ${others
						.slice(0, 5)
						.map(
							(entry) =>
								`${entry.ledger} (${entry.head_seq} events, ${entry.created_at.slice(0, 16)}–${entry.updated_at.slice(11, 16)}${entry.abandoned ? ', abandoned' : ''})`
						)
						.join(', ')}`
				);
			}
			if (comparison.truncated) {
				failures.push(
					`truncated: the export ends at seq ${comparison.truncated.exportSeq}, the server holds up to seq ${comparison.truncated.serverSeq}`
				);
				lines.push(`    TRUNCATED: ${failures.at(-1)?.slice(11)}`);
			}
			if (comparison.beyondServer > 0) {
				lines.push(
					`    ${comparison.beyondServer} event(s) after the server's copy: not witnessed`
				);
			}
			if (copy.refused.length > 0) {
				lines.push(
					`    the server refused ${copy.refused.length} append(s) that did not extend its copy (forks), first: ${copy.refused[0]?.reason}`
				);
			}
			for (const mismatch of modelCalls.mismatched.slice(0, 10)) {
				failures.push(`seq ${mismatch.seq}: ${mismatch.problem}`);
				lines.push(`    seq ${mismatch.seq}: ${mismatch.problem}`);
			}
			lines.push(
				`  model witness: ${modelCalls.matched} tool call(s) match what the model returned; ${modelCalls.unwitnessedAiChanges} AI change(s) answer no call the server's model made (demo or a browser key)`
			);
		}
	}
	if (receipts.witnessedSeq === 0 && !server?.comparison?.matching && events.length > 0) {
		failures.push('nothing in this export was witnessed by the class server');
	}
	return { ok: failures.length === 0, firstFailure: failures[0] ?? null, receipts, server, lines };
}
