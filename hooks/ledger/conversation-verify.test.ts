import { describe, expect, it } from 'vitest';
import { conversationSession } from '../pipeline/conversation-session-kit.js';
import { intentsFixture } from '../pipeline/pipeline-test-kit.js';
import { conversationFileName } from './conversation-export.js';
import { exportOrchestration } from './export.js';
import type { LedgerEvent } from './ledger-event.js';
import { verifyLedger } from './verify.js';

const encoder = new TextEncoder();

function exported(events: readonly LedgerEvent[]): Map<string, string> {
	return exportOrchestration({ events, activeIntentsYaml: intentsFixture, agentMd: '' });
}

async function verifyWith(files: Map<string, string>, conversation: string | null) {
	const orchestrationFiles = new Map<string, Uint8Array>();
	for (const [name, text] of files) orchestrationFiles.set(name, encoder.encode(text));
	if (conversation === null) orchestrationFiles.delete(conversationFileName);
	else orchestrationFiles.set(conversationFileName, encoder.encode(conversation));
	return verifyLedger({
		auditJsonl: files.get('audit.jsonl') as string,
		traceJsonl: files.get('agent_trace.jsonl') as string,
		orchestrationFiles
	});
}

describe('conversation.jsonl in the export and in verify', () => {
	it('holds every entry in ledger order with its place in the audit chain', async () => {
		const events = await conversationSession();
		const files = exported(events);
		const lines = (files.get(conversationFileName) as string).trimEnd().split('\n');
		const entries = events.filter((event) => event.type === 'conversation-entry');
		expect(lines).toHaveLength(entries.length);
		const first = JSON.parse(lines[0] as string);
		expect(first).toMatchObject({
			seq: entries[0]?.seq,
			session_id: 'builder',
			role: 'user',
			text: 'Please make the token expire after an hour.',
			prev_hash: entries[0]?.prev_hash,
			hash: entries[0]?.hash
		});
		const call = lines.map((line) => JSON.parse(line)).find((line) => line.tool_call);
		expect(call.tool_call).toEqual({
			id: 'call-1',
			name: 'select_active_intent',
			input: { intent_id: 'INT-001' }
		});
		const denied = lines
			.map((line) => JSON.parse(line))
			.find((line) => line.tool_result?.ok === false);
		expect(denied.tool_result.error.code).toBe('scope_violation');
		const report = await verifyWith(files, files.get(conversationFileName) as string);
		expect(report.firstFailure).toBeNull();
		expect(report.orchestration?.checked).toContain(conversationFileName);
	});

	it('fails an edited, dropped, added or reordered entry', async () => {
		const files = exported(await conversationSession());
		const lines = (files.get(conversationFileName) as string).trimEnd().split('\n');
		const edited = lines.map((line, index) =>
			index === 0 ? line.replace('an hour', 'a day') : line
		);
		const dropped = lines.filter((_, index) => index !== 1);
		const swapped = [lines[1], lines[0], ...lines.slice(2)] as string[];
		const added = [...lines, lines.at(-1) as string];
		for (const tampered of [edited, dropped, swapped, added]) {
			const report = await verifyWith(files, tampered.join('\n') + '\n');
			expect(report.ok).toBe(false);
			expect(report.firstFailure).toMatch(
				/conversation\.jsonl: differs from what the ledger gives/
			);
		}
	});

	it('fails an export that drops the file while its ledger holds a conversation', async () => {
		const files = exported(await conversationSession());
		const report = await verifyWith(files, null);
		expect(report.ok).toBe(false);
		expect(report.firstFailure).toMatch(
			/conversation\.jsonl: missing from the export, but the ledger holds/
		);
	});

	it('reports an export from before conversations as such, not as tampered', async () => {
		const events = (await conversationSession()).filter(
			(event) => event.type !== 'conversation-entry'
		);
		// An older ledger: the same events, never with a conversation, sealed as they were.
		const { LedgerChain } = await import('./ledger-chain.js');
		const { steppingClock } = await import('./ledger-test-fixtures.js');
		const drafts = events.map((event) => {
			const {
				seq: _seq,
				timestamp: _t,
				prev_hash: _p,
				hash: _h,
				...draft
			} = structuredClone(event);
			if (draft.type === 'mutation-record') {
				const {
					seq: _s,
					prev_hash: _pp,
					hash: _hh,
					...links
				} = draft.trace.metadata['dev.threadline'];
				(draft as { trace: unknown }).trace = {
					...draft.trace,
					metadata: { ...draft.trace.metadata, 'dev.threadline': links }
				};
			}
			return draft as never;
		});
		const sealed = await new LedgerChain({ clock: steppingClock() }).sealAll(drafts);
		const files = exported(sealed);
		const report = await verifyWith(files, null);
		expect(report.firstFailure).toBeNull();
		expect(report.orchestration?.notes?.[0]).toMatch(/older than conversation records/);
	});
});
