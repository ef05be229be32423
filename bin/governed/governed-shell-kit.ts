import { MemoryLedger } from '../../hooks/ledger/memory-ledger.js';
import { createToolPipeline } from '../../hooks/pipeline/create-tool-pipeline.js';
import { GovernanceState } from '../../hooks/pipeline/governance-state.js';
import {
	fixedClock,
	intentsFixture,
	sequentialIds
} from '../../hooks/pipeline/pipeline-test-kit.js';
import type { ToolPipeline } from '../../hooks/pipeline/tool-pipeline.js';
import { createLocalSandbox } from '../../sandbox/local/local-sandbox.js';
import {
	MemoryWorkspaceFiles,
	type InitialWorkspaceFiles
} from '../../sandbox/local/memory-workspace-files.js';
import type { Sandbox } from '../../sandbox/sandbox.js';
import { timerScheduler } from '../cli/node-ports.js';

/** The real pipeline over the real just-bash sandbox, for tests of the shell transaction. */
export interface GovernedShell {
	files: MemoryWorkspaceFiles;
	sandbox: Sandbox;
	pipeline: ToolPipeline;
	state: GovernanceState;
	ledger: MemoryLedger;
	run(tool: string, input: Record<string, unknown>): ReturnType<ToolPipeline['run']>;
	dispose(): Promise<void>;
}

export const startingFiles: InitialWorkspaceFiles = {
	'.orchestration/active_intents.yaml': intentsFixture,
	'.orchestration/audit.jsonl': '',
	'.git/HEAD': 'ref: refs/heads/main\n',
	'.git/config': '[core]\n',
	'.git/refs/heads/main': 'abc\n',
	'src/auth/jwt.ts': 'export const a = 1;\n',
	'src/db/users.ts': 'export const b = 2;\n',
	'README.md': '# readme\n'
};

export async function startGovernedShell(
	options: {
		files?: InitialWorkspaceFiles;
		intentsYaml?: string;
		intent?: string | null;
		/** Trace records carry the git revision, and complete_intent commits (commit_on_complete). */
		git?: boolean;
	} = {}
): Promise<GovernedShell> {
	const intentsYaml = options.intentsYaml ?? intentsFixture;
	const files = new MemoryWorkspaceFiles({
		...(options.files ?? startingFiles),
		'.orchestration/active_intents.yaml': intentsYaml
	});
	const sandbox = await createLocalSandbox({ files });
	const state = new GovernanceState({ intentsYaml, approvalPolicy: 'never' });
	const ledger = new MemoryLedger({ clock: fixedClock });
	const pipeline = createToolPipeline({
		state,
		fs: sandbox.fs,
		runner: sandbox,
		capabilities: sandbox.capabilities,
		ledger,
		approvals: { request: async () => ({ approved: true }) },
		clock: fixedClock,
		scheduler: timerScheduler,
		ids: sequentialIds(),
		toolVersion: 'test',
		...(options.git && sandbox.vcsRevision && sandbox.commitWorkingTree
			? {
					vcsRevision: sandbox.vcsRevision.bind(sandbox),
					commitWork: sandbox.commitWorkingTree.bind(sandbox)
				}
			: {})
	});
	let calls = 0;
	const run = (tool: string, input: Record<string, unknown>) =>
		pipeline.run({ sessionId: 'builder', toolCallId: `call-${(calls += 1)}`, tool, input });
	const intent = options.intent === undefined ? 'INT-001' : options.intent;
	if (intent) await run('select_active_intent', { intent_id: intent });
	return { files, sandbox, pipeline, state, ledger, run, dispose: () => sandbox.dispose() };
}

/** Every entry of the store (folders as `<folder>`, files as their bytes in hex). */
export function entriesOf(files: MemoryWorkspaceFiles): Map<string, string> {
	const entries = new Map<string, string>();
	for (const entry of files.allEntries()) {
		entries.set(
			entry.path,
			entry.kind === 'directory' ? '<folder>' : Buffer.from(entry.data).toString('hex')
		);
	}
	return entries;
}

/** Files the system itself maintains after a call (post-hooks), not changes made by a command. */
export const systemFiles = new Set([
	'.orchestration/AGENT.md',
	'.orchestration/intent_map.md',
	'.orchestration/active_intents.yaml'
]);

/** Paths whose entry differs between two `entriesOf` snapshots (system files left out). */
export function changedEntries(before: Map<string, string>, after: Map<string, string>): string[] {
	return [...new Set([...before.keys(), ...after.keys()])].filter(
		(path) => before.get(path) !== after.get(path) && !systemFiles.has(path)
	);
}
