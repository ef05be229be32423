import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import { steppingClock } from '../../../hooks/ledger/ledger-test-fixtures.js';
import { intentsFixture } from '../../../hooks/pipeline/pipeline-test-kit.js';
import type { ChangeProposal } from '../../../hooks/tools/sandbox-ports.js';
import type { IndexedDbWorkspaceFiles } from '../../../sandbox/local/indexeddb-workspace-files.js';
import { WorkspaceFileSystem } from '../../../sandbox/local/workspace-file-system.js';
import { AgentRuntime } from '../agent-runtime/agent-runtime.svelte.js';
import { IndexedDbLedger } from '../ledger/indexeddb-ledger.js';
import {
	bytes,
	failingHistoryReads,
	freshDatabaseName,
	lesson,
	storedLargeLedger,
	storesClosedAfterEach,
	StoreShell,
	text
} from '../ledger/ledger-test-kit.js';
import type { Workspace } from '../workspace/workspace.svelte.js';
import { IdeSession } from './ide-session.svelte.js';

const openStore = storesClosedAfterEach();

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
	agentOffForHistory: string | null;
	followLedgerProblems(ledger: IndexedDbLedger): void;
	reportDamagedLedger(ledger: IndexedDbLedger): void;
}

/**
 * An IdeSession as start() and startAgent() leave it over a large ledger whose history read fails
 * `failures` times: the agent is off, with the reason.
 */
async function sessionWithUnreadHistory(failures: number) {
	const { name } = await storedLargeLedger({ intentsYaml: intentsFixture });
	const store = await openStore(name);
	const ledger = await IndexedDbLedger.open({
		store: failingHistoryReads(store, { failuresLeft: failures }),
		checkFully: async () => ({ ok: true })
	});
	const fs = new WorkspaceFileSystem(store);
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
	const insides = new IdeSession({ scenario: null, sandbox: null }) as unknown as SessionInsides;
	insides.ledger = ledger;
	insides.store = store;
	insides.agent = null;
	insides.agentProblem = (created as { problem: string }).problem;
	insides.agentStarting = Promise.resolve();
	return { store, ledger, fs, insides };
}

describe('IdeSession while the saved history cannot be read', () => {
	it('refuses a save it cannot record, and says why a terminal change went unrecorded', async () => {
		const { store, ledger, fs, insides } = await sessionWithUnreadHistory(Infinity);
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
		const { damagedLedgerStore } = await import('../ledger/ledger-test-kit.js');
		const store = await damagedLedgerStore(openStore);
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
		const reopened = await IndexedDbLedger.open({ store: await openStore(store.name) });
		expect(reopened.integrity.ok).toBe(true);
	});
});

describe('IdeSession after a refresh reads the history the open could not', () => {
	it("does not save the person's file unrecorded once the notice is taken back", async () => {
		const { store, ledger, fs, insides } = await sessionWithUnreadHistory(3);
		// What startAgent() keeps when the history was why the agent is off, and start()'s wiring.
		insides.agentOffForHistory = ledger.historyProblem;
		insides.followLedgerProblems(ledger);
		expect(insides.notice).toMatch(/could not be read/);

		// Another tab's announcement: the refresh reads the history at last.
		await ledger.refresh();
		expect(ledger.historyProblem).toBeNull();
		expect(ledger.writable).toBe(true);
		expect(insides.notice).toBeNull(); // the ledger notice was taken back

		const lastSeq = ledger.lastSeq;
		const workspace = insides.createWorkspace(fs);
		await workspace.refresh();
		const createdAfter = await workspace.createFile('notes.md', 'written after the recovery');
		const saved = text(await store.read('notes.md').catch(() => null));
		const recorded = ledger.eventsSince(lastSeq);
		// A save the IDE cannot record (no agent, no pipeline) is refused, as before the refresh,
		// or recorded: never written as a change nobody made.
		expect({
			created: createdAfter,
			saved,
			recorded: recorded.length,
			error: workspace.error
		}).toEqual({
			created: null,
			saved: null,
			recorded: 0,
			error: expect.stringMatching(/reload the page/)
		});
	});
});

describe('IdeSession hears damage a refresh finds in events another tab stored', () => {
	it('says the ledger is damaged when a refresh finds appended events that do not hold', async () => {
		const { editStoredEvent } = await import('../ledger/ledger-test-kit.js');
		const name = freshDatabaseName();
		const writer = await IndexedDbLedger.open({
			store: await openStore(name),
			clock: steppingClock()
		});
		await writer.append([lesson('one'), lesson('two')]);
		const store = await openStore(name);
		const reader = await IndexedDbLedger.open({ store, writable: false });
		expect(reader.lastSeq).toBe(2);
		await writer.append([lesson('three')]);
		await (writer as unknown as { store: IndexedDbWorkspaceFiles }).store.flush();
		// Event 3 edited by hand before this tab reads it.
		await editStoredEvent(name, 3, (event) => ({ ...event, lesson: 'rewritten' }));
		const session = new IdeSession({ scenario: null, sandbox: null });
		const insides = session as unknown as SessionInsides;
		insides.ledger = reader;
		insides.followLedgerProblems(reader);
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(insides.notice).toBeNull();
		await reader.refresh();
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(reader.integrity.ok).toBe(false);
		expect(insides.notice).toEqual(expect.stringMatching(/^The saved ledger is damaged/));
	});
});
