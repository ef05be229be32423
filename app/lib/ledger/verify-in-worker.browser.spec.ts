import { describe, expect, it } from 'vitest';
import { exportOrchestration } from '../../../hooks/ledger/export.js';
import { buildMixedLedger } from '../../../hooks/ledger/ledger-test-fixtures.js';
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
});
