import { describe, expect, it } from 'vitest';
import { exportOrchestration } from '../../../hooks/ledger/export.js';
import { buildMixedLedger, resealedExport } from '../../../hooks/ledger/ledger-test-fixtures.js';
import { partsFromBytes } from '../../../hooks/ledger/verify-parts.js';
import { verifyLedger } from '../../../hooks/ledger/verify.js';
import { verifyInWorker } from './verify-in-worker.js';
import type { VerifyProgress } from './verify-messages.js';

// Runs in Chromium: the verify Worker the trace panel's Verify uses, with progress and Cancel.

const encoder = new TextEncoder();

async function exported() {
	const { events, workspace } = await buildMixedLedger();
	const files = exportOrchestration({ events, activeIntentsYaml: '', agentMd: '', intents: [] });
	return {
		events,
		workspace,
		audit: files.get('audit.jsonl') ?? '',
		trace: files.get('agent_trace.jsonl') ?? ''
	};
}

describe('verifyInWorker', () => {
	it('accepts an untouched export given as jsonl bytes, with progress up to the total', async () => {
		const { audit, trace, workspace } = await exported();
		const progress: VerifyProgress[] = [];
		const report = await verifyInWorker(
			{
				kind: 'jsonl',
				audit: encoder.encode(audit),
				trace: encoder.encode(trace),
				files: workspace
			},
			{ onProgress: (step) => progress.push(step) }
		);
		expect(report.firstFailure).toBeNull();
		expect(report.ok).toBe(true);
		expect(report.audit.events).toBe(audit.trim().split('\n').length);
		expect(progress.at(-1)).toEqual({ checked: report.audit.events, total: report.audit.events });
	});

	it('accepts the stored events (exported in the Worker) and rejects an edited one', async () => {
		const { events } = await exported();
		const good = await verifyInWorker({
			kind: 'events',
			events,
			activeIntentsYaml: '',
			intents: []
		});
		expect(good.ok).toBe(true);
		const edited = structuredClone(events) as typeof events;
		(edited[3] as { session_id: string }).session_id = 'forged';
		const bad = await verifyInWorker({
			kind: 'events',
			events: edited,
			activeIntentsYaml: '',
			intents: []
		});
		expect(bad.ok).toBe(false);
		expect(bad.firstFailure).toContain(
			'audit.jsonl line 4 (seq 4): hash does not match its content'
		);
	});

	it('rejects a non-canonical but parse-equal line in a CRLF file', async () => {
		const { audit, trace } = await exported();
		const lines = audit.split('\n');
		lines[1] = (lines[1] as string).replace('{"', '{ "');
		const report = await verifyInWorker({
			kind: 'jsonl',
			audit: encoder.encode(lines.join('\r\n')),
			trace: encoder.encode(trace)
		});
		expect(report.ok).toBe(false);
		expect(report.firstFailure).toContain('audit.jsonl line 2 (seq 2): not in canonical JSON form');
	});

	it('stops when cancelled and rejects with an AbortError', async () => {
		const { audit, trace } = await exported();
		const controller = new AbortController();
		const running = verifyInWorker(
			{ kind: 'jsonl', audit: encoder.encode(audit.repeat(1)), trace: encoder.encode(trace) },
			{ signal: controller.signal }
		);
		controller.abort();
		await expect(running).rejects.toMatchObject({ name: 'AbortError' });
	});

	it('verifies a ledger large enough for parts beside its helper Worker, as one pass does', async () => {
		// Shared memory is what lets the helper read the ledger: without it verify would go alone.
		expect(globalThis.crossOriginIsolated).toBe(true);
		const { events } = await buildMixedLedger();
		// A megabyte-sized field in most events (the chain covers it) makes a ledger over the size
		// verify cuts into parts, quickly.
		const padded = await resealedExport(events, (drafts) => {
			for (const [index, draft] of drafts.entries())
				if (index % 4 !== 0)
					(draft as { padding?: string }).padding = `${index}`.padEnd(1_200_000, 'x');
		});
		const audit = encoder.encode(padded.audit);
		const trace = encoder.encode(padded.trace);
		expect(audit.length + trace.length).toBeGreaterThan(partsFromBytes);
		const good = await verifyInWorker({
			kind: 'jsonl',
			audit: audit.slice(),
			trace: trace.slice()
		});
		expect(good.firstFailure).toBeNull();
		expect(good.audit.events).toBe(events.length);
		// A changed byte in the last event: found where one pass on this thread finds it.
		const edited = audit.slice();
		const lastLine = edited.lastIndexOf(10, edited.length - 2) + 1;
		edited[edited.indexOf(0x78, lastLine)] = 0x79;
		const expected = await verifyLedger({ auditJsonl: edited.slice(), traceJsonl: trace });
		expect(expected.ok).toBe(false);
		const bad = await verifyInWorker({ kind: 'jsonl', audit: edited, trace: trace.slice() });
		expect(bad).toEqual(expected);
	}, 60_000);
});
