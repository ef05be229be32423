import { afterEach, describe, expect, it } from 'vitest';
import type { LedgerEvent } from '../../hooks/ledger/ledger-event.js';
import type { LineShellSession } from '../../sandbox/sandbox.js';
import { startGovernedShell, type GovernedShell } from './governed-shell-kit.js';

// Issue 9: git offline under governance. Only the person's terminal changes the repository; the
// agent reads it; trace records carry the real revision; complete_intent may commit.

const files = {
	'.orchestration/active_intents.yaml': '',
	'src/db/users.ts': 'export const users = [];\n',
	'README.md': '# readme\n'
};

describe('git under governance', () => {
	let shell: GovernedShell | undefined;
	afterEach(async () => {
		await shell?.dispose();
		shell = undefined;
	});

	async function personTyping(governed: GovernedShell) {
		const session = (await governed.sandbox.openShell({ cols: 80, rows: 24 })) as LineShellSession;
		return async (line: string) => {
			let output = '';
			const result = await session.run(line, {
				review: governed.pipeline.terminalReview(),
				onOutput: (chunk) => (output += chunk)
			});
			return { output, exitCode: result.exitCode };
		};
	}

	/** The agent reads src/db/users.ts, then writes it under INT-002. */
	async function agentWritesUsers(governed: GovernedShell, content: string): Promise<void> {
		await governed.run('read_file', { path: 'src/db/users.ts' });
		await governed.run('write_to_file', {
			path: 'src/db/users.ts',
			content,
			intent_id: 'INT-002',
			mutation_class: 'INTENT_EVOLUTION'
		});
	}

	const traceRecords = (events: readonly LedgerEvent[]) =>
		events.flatMap((event) => (event.type === 'mutation-record' ? [event.trace] : []));

	it("refuses the agent's writing git commands and lets it read", async () => {
		shell = await startGovernedShell({ files, intent: 'INT-002', git: true });
		const type = await personTyping(shell);
		await type('git init && git add . && git commit -m "Start"');
		const refused = await shell.run('execute_command', {
			command: 'git commit --allow-empty -m x'
		});
		expect(JSON.stringify(refused)).toMatch(/only a person's terminal may do here/);
		const read = await shell.run('execute_command', { command: 'git log --oneline' });
		expect(JSON.stringify(read)).toMatch(/\(HEAD -> main\) Start/);
		expect((await type('git log --oneline')).output.trim().split('\n')).toHaveLength(1);
	});

	it('puts the real revision on trace records once there is a commit, and none before', async () => {
		shell = await startGovernedShell({ files, intent: 'INT-002', git: true });
		await agentWritesUsers(shell, 'export const users = [1];\n');
		const type = await personTyping(shell);
		await type('git init && git add . && git commit -m "Start"');
		const head = (await type('git rev-parse HEAD')).output.trim();
		expect(head).toMatch(/^[0-9a-f]{40}$/);
		await agentWritesUsers(shell, 'export const users = [1, 2];\n');
		const records = traceRecords(await shell.ledger.events());
		expect(records).toHaveLength(2);
		expect(records[0]?.vcs).toBeUndefined();
		expect(records[1]?.vcs).toEqual({ type: 'git', revision: head });
	});

	it('commits the work when complete_intent succeeds, as the agent, changing no file', async () => {
		shell = await startGovernedShell({ files, intent: 'INT-002', git: true });
		await agentWritesUsers(shell, 'export const users = ["ada"];\n');
		const before = shell.files.snapshot();
		const completed = await shell.run('complete_intent', { intent_id: 'INT-002' });
		const text = JSON.stringify(completed);
		expect(text).toMatch(/"committed":true/);
		const revision = /"revision":"([0-9a-f]{40})"/.exec(text)?.[1];
		expect(revision).toBeDefined();
		expect(shell.sandbox.vcsRevision?.()).toBe(revision);
		const type = await personTyping(shell);
		const log = (await type('git log')).output;
		expect(log).toContain('INT-002: Refactor the database layer');
		expect(log).toMatch(/Author: .* \(Threadline agent\) <agent@threadline\.invalid>/);
		// The work is in the commit; governance files stay out of it and out of the status (as if
		// .git/info/exclude listed them), though intent_map.md changes after completion.
		expect((await type('git status -s')).output).toBe('');
		expect((await type('git show HEAD')).output).not.toContain('.orchestration/');
		expect((await type('git show HEAD')).output).toContain('+export const users = ["ada"];');
		// Only governance's own files changed in the workspace (the status, the map), as without git.
		const after = shell.files.snapshot();
		const changed = [...after.keys()].filter(
			(path) =>
				Buffer.compare(Buffer.from(after.get(path) ?? []), Buffer.from(before.get(path) ?? [])) !==
				0
		);
		expect(changed.sort()).toEqual([
			'.orchestration/active_intents.yaml',
			'.orchestration/intent_map.md'
		]);
	});
});
