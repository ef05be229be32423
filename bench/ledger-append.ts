import type { LedgerEventDraft } from '../hooks/ledger/ledger-event.js';
import { MemoryLedger } from '../hooks/ledger/memory-ledger.js';
import type { Clock } from '../hooks/pipeline/ports.js';
import { summarize, type TimingSummary } from './statistics.js';

const systemClock: Clock = {
	nowIso: () => new Date().toISOString(),
	nowMs: () => performance.now()
};

function decisionDraft(callNumber: number): LedgerEventDraft {
	return {
		type: 'tool-decision',
		session_id: 'builder',
		tool: 'write_to_file',
		tool_call_id: `call-${callNumber}`,
		decision: 'allow',
		hooks: ['protected-path', 'gatekeeper', 'scope', 'stale-file', 'approval-policy'],
		intent_id: 'INT-136'
	};
}

/** Sealing and storing one tool-decision event: canonical JSON, one sha256, the chain link. */
export async function timeLedgerAppend(options: {
	warmup: number;
	samples: number;
}): Promise<TimingSummary> {
	const ledger = new MemoryLedger({ clock: systemClock });
	let callNumber = 0;
	for (let round = 0; round < options.warmup; round++)
		await ledger.append([decisionDraft(++callNumber)]);
	const durations = new Array<number>(options.samples);
	let previousSeq = options.warmup;
	for (let round = 0; round < options.samples; round++) {
		const draft = decisionDraft(++callNumber);
		const started = performance.now();
		const [event] = await ledger.append([draft]);
		durations[round] = performance.now() - started;
		if (event?.seq !== previousSeq + 1)
			throw new Error(`append sealed seq ${event?.seq}, expected ${previousSeq + 1}`);
		previousSeq = event.seq;
	}
	return summarize(durations);
}
