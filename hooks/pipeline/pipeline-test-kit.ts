import { MemoryLedger } from '../ledger/memory-ledger.js';
import type {
	CommandRunner,
	EntryChange,
	ExecOptions,
	ExecResult,
	FileChange
} from '../tools/sandbox-ports.js';
import { InMemoryFileSystem } from '../workspace/in-memory-file-system.js';
import { createToolPipeline } from './create-tool-pipeline.js';
import { GovernanceState } from './governance-state.js';
import type { ApprovalAnswer, ApprovalPrompt, Clock, IdSource, Scheduler } from './ports.js';

/** Shared set-up for pipeline tests and the bench: the real pipeline over in-memory ports. */
export const intentsFixture = `# Two intents with disjoint scopes, as in the TRP1 demo
active_intents:
  - id: INT-001
    name: JWT Authentication Migration
    status: IN_PROGRESS
    owned_scope: ["src/auth/**", "src/middleware/jwt.ts"]
    constraints: ["Must not use external auth providers"]
    acceptance_criteria:
      - "Unit tests in tests/auth/ pass"
      - description: "auth tests"
        run: "test-auth"
  - id: INT-002
    name: Refactor the database layer
    status: IN_PROGRESS
    owned_scope: ["src/db/**"]
  - id: INT-003
    name: Drafted idea
    status: DRAFT
    owned_scope: ["docs/**"]
`;

export const fixedClock: Clock = { nowIso: () => '2026-11-21T12:00:00.000Z', nowMs: () => 0 };

export function sequentialIds(): IdSource {
	let counter = 0;
	return { uuid: () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}` };
}

/** Resolves a delay only when the test lets it, so timeouts can be triggered on purpose. */
export const immediateScheduler: Scheduler = { delay: () => Promise.resolve() };
export const neverScheduler: Scheduler = { delay: () => new Promise(() => undefined) };

/** A command runner that applies scripted changes to the in-memory fs, as a shell would. */
export class ScriptedRunner implements CommandRunner {
	readonly commands: string[] = [];
	constructor(
		private readonly fs: InMemoryFileSystem,
		private readonly script: Record<
			string,
			{ exitCode?: number; output?: string; writes?: Record<string, string | null> }
		> = {}
	) {}

	/** Whether a folder on the way to `path` is a file, now or once the command has written. */
	private async belowFile(path: string, written: ReadonlySet<string>): Promise<boolean> {
		const segments = path.split('/');
		for (let end = 1; end < segments.length; end++) {
			const above = segments.slice(0, end).join('/');
			if (written.has(above) || (await this.fs.stat(above))?.kind === 'file') return true;
		}
		return false;
	}

	async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
		this.commands.push(command);
		const entry = this.script[command] ?? { exitCode: 0, output: '' };
		// A transaction, like the real sandboxes: the scripted writes are proposed, and only the
		// paths the review commits are applied.
		const entries: EntryChange[] = [];
		const writes = Object.entries(entry.writes ?? {});
		// Files this command writes: a shell cannot write below them either (ENOTDIR).
		const written = new Set(writes.flatMap(([path, content]) => (content === null ? [] : [path])));
		for (const [path, content] of writes) {
			if (await this.belowFile(path, written)) continue;
			const stat = await this.fs.stat(path);
			// Like a shell, it cannot overwrite a folder with a file or remove it as one.
			if (stat?.kind === 'directory') continue;
			const before = stat ? await this.fs.readFile(path) : null;
			if (before === null && content === null) continue;
			const after = content === null ? null : new TextEncoder().encode(content);
			entries.push({
				path,
				before: before ? { kind: 'file', data: before } : { kind: 'absent' },
				after: after ? { kind: 'file', data: after } : { kind: 'absent' }
			});
		}
		let committed: EntryChange[] = [];
		const commit = async (paths: readonly string[]) => {
			committed = entries.filter((change) => paths.includes(change.path));
			for (const change of committed) {
				this.fs.externalWrite(change.path, change.after.kind === 'file' ? change.after.data : null);
			}
		};
		if (options.review) await options.review({ entries, commit });
		else await commit(entries.map((change) => change.path));
		const changes: FileChange[] = committed.map((change) => ({
			path: change.path,
			type:
				change.after.kind === 'absent'
					? 'deleted'
					: change.before.kind === 'absent'
						? 'created'
						: 'modified',
			before: change.before.kind === 'file' ? change.before.data : null,
			after: change.after.kind === 'file' ? change.after.data : null
		}));
		return {
			exitCode: entry.exitCode ?? 0,
			output: entry.output ?? '',
			changes,
			interrupted: false
		};
	}
}

export function createTestPipeline(options: {
	files?: Record<string, string>;
	intentsYaml?: string;
	intentIgnore?: string;
	approve?: (prompt: ApprovalPrompt) => ApprovalAnswer | Promise<ApprovalAnswer>;
	commands?: ConstructorParameters<typeof ScriptedRunner>[1];
	scheduler?: Scheduler;
	policy?: 'always' | 'destructive' | 'never';
	checkConsent?: (command: string) => Promise<boolean>;
	/** The pipeline's clock; fixedClock (time stands still) by default. */
	clock?: Clock;
}) {
	const intentsYaml = options.intentsYaml ?? intentsFixture;
	const fs = new InMemoryFileSystem({
		'.orchestration/active_intents.yaml': intentsYaml,
		...options.files
	});
	const runner = new ScriptedRunner(fs, options.commands);
	const ledger = new MemoryLedger({ clock: fixedClock });
	const prompts: ApprovalPrompt[] = [];
	const state = new GovernanceState({
		intentsYaml,
		intentIgnore: options.intentIgnore,
		approvalPolicy: options.policy
	});
	const pipeline = createToolPipeline({
		state,
		fs,
		runner,
		capabilities: { kind: 'local', description: 'test shell', commands: ['ls', 'cat'] },
		ledger,
		approvals: {
			request: async (prompt) => {
				prompts.push(prompt);
				return options.approve ? options.approve(prompt) : { approved: true };
			}
		},
		clock: options.clock ?? fixedClock,
		scheduler: options.scheduler ?? neverScheduler,
		ids: sequentialIds(),
		toolVersion: '0.1.0-test',
		...(options.checkConsent ? { checkConsent: options.checkConsent } : {})
	});
	let callNumber = 0;
	const call = (tool: string, input: unknown, sessionId = 'builder') =>
		pipeline.run({ sessionId, toolCallId: `call-${++callNumber}`, tool, input });
	return { pipeline, fs, runner, ledger, state, prompts, call };
}
