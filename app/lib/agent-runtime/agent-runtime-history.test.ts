import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { intentsFixture } from '../../../hooks/pipeline/pipeline-test-kit.js';
import { WorkspaceFileSystem } from '../../../sandbox/local/workspace-file-system.js';
import { LedgerWitness } from '../class/ledger-witness.js';
import { IndexedDbLedger } from '../ledger/indexeddb-ledger.js';
import {
	failingHistoryReads,
	storedLargeLedger,
	storesClosedAfterEach,
	StoreShell
} from '../ledger/ledger-test-kit.js';
import { AgentRuntime } from './agent-runtime.svelte.js';

// A large ledger opens from its last events and reads its history after (indexeddb-ledger.ts):
// what the agent and the class witness do when that history cannot be read.

const openStore = storesClosedAfterEach();

describe('a ledger whose history cannot be read', () => {
	it('keeps the agent off with a reason in words, and the witness quiet', async () => {
		const { name } = await storedLargeLedger({ intentsYaml: intentsFixture });
		const store = await openStore(name);
		const ledger = await IndexedDbLedger.open({
			store: failingHistoryReads(store, { failuresLeft: Infinity }),
			checkFully: async () => ({ ok: true })
		});
		const unhandled: unknown[] = [];
		const onUnhandled = (reason: unknown) => unhandled.push(reason);
		process.on('unhandledRejection', onUnhandled);
		let requests = 0;
		try {
			const witness = new LedgerWitness({
				ledger,
				token: 'token',
				fetch: async () => {
					requests++;
					return new Response('{}', { status: 500 });
				},
				schedule: () => () => undefined,
				onStatus: () => undefined,
				newId: () => 'ledger-id'
			});
			const created = await AgentRuntime.create({
				scenarioId: 'history',
				approvalPolicy: 'never',
				demoScript: null,
				ledger,
				fs: new WorkspaceFileSystem(store),
				runner: new StoreShell(store),
				capabilities: { kind: 'local', description: 'test shell', commands: ['ls'] },
				snapshot: () => store.snapshot(),
				toolVersion: '0.1.0-test'
			});
			expect(created).toEqual({
				problem: expect.stringMatching(
					/^The agent is off: the saved ledger could not be read \(The database connection is closing\.\)\. Nothing saved was lost; reload the page/
				)
			});
			await witness.sync();
			await new Promise((resolve) => setTimeout(resolve, 20));
			witness.dispose();
		} finally {
			process.off('unhandledRejection', onUnhandled);
		}
		expect(requests).toBe(0);
		expect(unhandled).toEqual([]);
	});
});
