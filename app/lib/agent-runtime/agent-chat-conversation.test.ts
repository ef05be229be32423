import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import { intentsFixture } from '../../../hooks/pipeline/pipeline-test-kit.js';
import { WorkspaceFileSystem } from '../../../sandbox/local/workspace-file-system.js';
import { IndexedDbLedger } from '../ledger/indexeddb-ledger.js';
import { freshDatabaseName, openLedgerStore, StoreShell } from '../ledger/ledger-test-kit.js';
import { AgentRuntime } from './agent-runtime.svelte.js';

const demoScript = `model: demo/scripted
steps:
  - say: I will select the JWT intent first.
  - call: select_active_intent
    input: { intent_id: INT-001 }
    expect: ok
  - say: Now the expiry constant.
  - call: write_to_file
    input: { path: src/auth/expiry.ts, content: "export const expiresIn = 3600;\\n", intent_id: INT-001, mutation_class: INTENT_EVOLUTION }
    expect: ok
`;

async function until(condition: () => boolean, what: string): Promise<void> {
	for (let tries = 0; tries < 500; tries++) {
		if (condition()) return;
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
	throw new Error(`timed out waiting for ${what}`);
}

describe('the agent chat records its conversation in the ledger (issue 31)', () => {
	it('records the learner, the model’s texts, each call as sent and each result as received, before the call’s own events', async () => {
		const store = await openLedgerStore(freshDatabaseName());
		const ledger = await IndexedDbLedger.open({ store, checkFully: async () => ({ ok: true }) });
		await ledger.resetWith({ '.orchestration/active_intents.yaml': intentsFixture });
		const created = await AgentRuntime.create({
			scenarioId: 'conversation',
			approvalPolicy: 'never',
			demoScript,
			ledger,
			fs: new WorkspaceFileSystem(store),
			runner: new StoreShell(store),
			capabilities: { kind: 'local', description: 'test shell', commands: ['ls'] },
			snapshot: () => store.snapshot(),
			toolVersion: '0.1.0-test'
		});
		if (!('runtime' in created)) throw new Error(created.problem);
		const runtime = created.runtime;
		try {
			const chat = runtime.activeSession;
			if (!chat) throw new Error('no session');
			await chat.send('Run the demo, my key is sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX');
			const entries = () =>
				ledger
					.eventsSince(0)
					.filter(
						(event): event is Extract<LedgerEvent, { type: 'conversation-entry' }> =>
							event.type === 'conversation-entry'
					);
			await until(
				() => entries().filter((entry) => entry.role === 'tool').length >= 2 && !chat.busy,
				'two tool results'
			);
			await until(() => !chat.busy, 'the chat to settle');
			const events = ledger.eventsSince(0);
			const list = entries();
			expect(list[0]).toMatchObject({ role: 'user', text: 'Run the demo, my key is [redacted]' });
			expect(JSON.stringify(events)).not.toContain('sk-proj-ABCDEFGH');
			const said = list.find((entry) => entry.text?.includes('I will select the JWT intent'));
			const call = list.find((entry) => entry.tool_call?.name === 'select_active_intent');
			const result = list.find(
				(entry) => entry.role === 'tool' && entry.tool_result?.id === call?.tool_call?.id
			);
			expect(said?.model).toBe('demo/scripted');
			expect(call?.tool_call?.input).toEqual({ intent_id: 'INT-001' });
			expect(result?.tool_result?.ok).toBe(true);
			const start = events.find(
				(event) => event.type === 'tool-call-start' && event.tool_call_id === call?.tool_call?.id
			);
			const finish = events.find(
				(event) => event.type === 'tool-call-finish' && event.tool_call_id === call?.tool_call?.id
			);
			// What the model said, then the call as sent, then the pipeline's events, then the result.
			expect(said!.seq).toBeLessThan(call!.seq);
			expect(call!.seq).toBeLessThan(start!.seq);
			expect(finish!.seq).toBeLessThan(result!.seq);
			const write = list.find((entry) => entry.tool_call?.name === 'write_to_file');
			const mutation = events.find((event) => event.type === 'mutation-record');
			expect(write!.seq).toBeLessThan(mutation!.seq);
			// Each assistant part is recorded once.
			const texts = list.filter((entry) => entry.role === 'assistant' && entry.text);
			expect(new Set(texts.map((entry) => entry.text)).size).toBe(texts.length);
		} finally {
			runtime.dispose();
		}
	});
});
