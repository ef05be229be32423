import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import { steppingClock } from '../../../hooks/ledger/ledger-test-fixtures.js';
import { intentsFixture } from '../../../hooks/pipeline/pipeline-test-kit.js';
import type { ChangeProposal } from '../../../hooks/tools/sandbox-ports.js';
import type { IndexedDbWorkspaceFiles } from '../../../sandbox/local/indexeddb-workspace-files.js';
import { WorkspaceFileSystem } from '../../../sandbox/local/workspace-file-system.js';
import { AgentRuntime } from '../agent-runtime/agent-runtime.svelte.js';
import { IndexedDbLedger } from '../ledger/indexeddb-ledger.js';
import { ledgerStores, type LedgerRecordStore } from '../ledger/ledger-record-store.js';
import {
	bytes,
	freshDatabaseName,
	lesson,
	openLedgerStore,
	StoreShell,
	text
} from '../ledger/ledger-test-kit.js';
import type { Workspace } from '../workspace/workspace.svelte.js';
import { IdeSession } from './ide-session.svelte.js';

const opened: IndexedDbWorkspaceFiles[] = [];
async function openStore(name: string) {
	const store = await openLedgerStore(name);
	opened.push(store);
	return store;
}
afterEach(async () => {
	await Promise.all(opened.splice(0).map((store) => store.close()));
});

async function storedLargeLedger() {
	const name = freshDatabaseName();
	const store = await openStore(name);
	await new WorkspaceFileSystem(store).writeFile(
		'.orchestration/active_intents.yaml',
		bytes(intentsFixture)
	);
	const ledger = await IndexedDbLedger.open({ store, clock: steppingClock() });
	for (let start = 0; start < 2_500; start += 500)
		await ledger.append(Array.from({ length: 500 }, (_, index) => lesson(`l${start + index}`)));
	await store.close();
	return name;
}

/** Every read of the whole events store (the history read after a tail open) fails. */
function historyUnreadable(store: LedgerRecordStore): LedgerRecordStore {
	return new Proxy(store, {
		get(target, property) {
			if (property === 'readAll')
				return async (storeName: string, range?: IDBKeyRange) => {
					if (storeName === ledgerStores.events && range === undefined)
						throw new Error('The database connection is closing.');
					return target.readAll(storeName, range);
				};
			const value: unknown = Reflect.get(target, property);
			return typeof value === 'function' ? value.bind(target) : value;
		}
	});
}

/** The private parts of IdeSession this test drives (as start() and startSandbox() leave them). */
interface SessionInsides {
	ledger: IndexedDbLedger | null;
	store: IndexedDbWorkspaceFiles | null;
	agent: AgentRuntime | null;
	agentProblem: string | null;
	agentStarting: Promise<void>;
	notice: string | null;
	createWorkspace(fs: WorkspaceFileSystem): Workspace;
	terminalReview(): (proposal: ChangeProposal) => Promise<void>;
}

describe('IdeSession while the saved history cannot be read', () => {
	it('refuses a save it cannot record, and says why a terminal change went unrecorded', async () => {
		const name = await storedLargeLedger();
		const store = await openStore(name);
		const ledger = await IndexedDbLedger.open({
			store: historyUnreadable(store),
			checkFully: async () => ({ ok: true })
		});
		const fs = new WorkspaceFileSystem(store);
		// What startAgent() does: the agent is off, with the reason.
		const created = await AgentRuntime.create({
			scenarioId: 'history',
			approvalPolicy: 'never',
			demoScript: null,
			ledger,
			fs,
			runner: new StoreShell(store),
			capabilities: { kind: 'local', description: 'test shell', commands: ['ls'] },
			snapshot: () => store.snapshot(),
			toolVersion: '0.1.0-test'
		});
		expect('problem' in created).toBe(true);
		const session = new IdeSession({ scenario: null, sandbox: null });
		const insides = session as unknown as SessionInsides;
		insides.ledger = ledger;
		insides.store = store;
		insides.agent = null;
		insides.agentProblem = (created as { problem: string }).problem;
		insides.agentStarting = Promise.resolve();
		expect(ledger.historyProblem).toMatch(/could not be read/);
		const lastSeq = ledger.lastSeq;

		// A save in the editor.
		const workspace = insides.createWorkspace(fs);
		await workspace.refresh();
		expect(await workspace.createFile('notes.md', 'written while unrecorded')).toBeNull();
		// A terminal line that changed a file.
		await insides.terminalReview()({
			entries: [
				{
					path: 'shell.txt',
					before: { kind: 'absent' },
					after: { kind: 'file', data: bytes('from the shell') }
				}
			],
			commit: async (paths) => {
				for (const path of paths) await fs.writeFile(path, bytes('from the shell'));
			}
		});
		const saved = text(await store.read('notes.md').catch(() => null));
		const events: readonly LedgerEvent[] = ledger.eventsSince(lastSeq);
		expect(events).toEqual([]);
		// Expected: a save the ledger cannot record is refused (as it is with a broken ledger), or said.
		expect(saved).toBeNull();
		expect(workspace.error).toMatch(/the saved ledger could not be read .*reload the page/);
		expect(insides.notice).toMatch(
			/^The terminal's changes could not be recorded \(the saved ledger could not be read/
		);
	});
});

describe('IdeSession: the way out the damage notice gives', () => {
	it('"reset the scenario" on a damaged ledger starts a new ledger with the files', async () => {
		const { editStoredEvent } = await import('../ledger/ledger-test-kit.js');
		const name = freshDatabaseName();
		const first = await openStore(name);
		const original = await IndexedDbLedger.open({ store: first, clock: steppingClock() });
		await original.append([lesson('one'), lesson('two'), lesson('three')]);
		await first.close();
		await editStoredEvent(name, 2, (event) => ({ ...event, hash: `sha256:${'0'.repeat(64)}` }));
		const store = await openStore(name);
		const ledger = await IndexedDbLedger.open({ store });
		expect(ledger.integrity.ok).toBe(false);
		const session = new IdeSession({ scenario: null, sandbox: null });
		const insides = session as unknown as SessionInsides & {
			replaceFiles(files: Record<string, Uint8Array>): Promise<void>;
			reportDamagedLedger(ledger: IndexedDbLedger): void;
		};
		insides.ledger = ledger;
		insides.store = store;
		insides.reportDamagedLedger(ledger);
		// What reset() does (the sandbox restart after it cannot run in Node: its failure is ignored).
		await insides.replaceFiles({ 'fresh.txt': bytes('fresh') }).catch(() => undefined);
		const reopened = await IndexedDbLedger.open({ store: await openStore(name) });
		expect(reopened.integrity.ok).toBe(true);
	});
});
