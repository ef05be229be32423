import { readJsonl } from '../../hooks/ledger/read-jsonl.js';
import { argumentsHash } from '../../server/class-service.js';
import { receiptSignatureValid } from '../../server/witness/receipt.js';
import { publicKeyFromBase64 } from '../../server/witness/signing-key.js';
import { UsageError } from './usage-error.js';
import {
	checkModelCalls,
	checkReceipts,
	compareWithServer,
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
	const receipts = checkReceipts(events, (receipt, signature) =>
		receiptSignatureValid(receipt, signature, key)
	);
	const lines: string[] = [];
	const failures: string[] = [];
	lines.push(
		`  witness:       ${receipts.receipts} receipt(s), ${receipts.invalid.length} invalid; witnessed up to seq ${receipts.witnessedSeq}`
	);
	for (const invalid of receipts.invalid.slice(0, 10)) {
		lines.push(`    seq ${invalid.seq}: ${invalid.problem}`);
		failures.push(`witness receipt at seq ${invalid.seq}: ${invalid.problem}`);
	}
	if (receipts.notWitnessed) {
		lines.push(
			`  not witnessed: ${receipts.notWitnessed.count} event(s), seq ${receipts.notWitnessed.from}–${receipts.notWitnessed.to} (after the last receipt)`
		);
	}

	let server: WitnessReport['server'] = null;
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
			if (comparison.firstDifference) {
				failures.push(`rewritten: ${comparison.firstDifference.problem}`);
				lines.push(`    REWRITTEN: ${comparison.firstDifference.problem}`);
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
