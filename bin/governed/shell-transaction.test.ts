import { afterEach, describe, expect, it } from 'vitest';
import { personPathCheck } from '../../hooks/pipeline/shell-transaction.js';
import {
	changedEntries,
	entriesOf,
	startGovernedShell,
	startingFiles,
	type GovernedShell
} from './governed-shell-kit.js';

/**
 * The shell transaction against the real just-bash sandbox and the real pipeline: the issue's
 * reproductions (file↔folder swaps, backslash names, folders, case tricks, criteria scripts,
 * byte fidelity) and what the agent is told.
 */
let shell: GovernedShell | undefined;
afterEach(async () => {
	await shell?.dispose();
	shell = undefined;
});

async function start(options: Parameters<typeof startGovernedShell>[0] = {}) {
	shell = await startGovernedShell(options);
	return shell;
}

/** Runs a command as the agent and returns the outcome and the entries it changed. */
async function command(governed: GovernedShell, line: string, cwd?: string) {
	const before = entriesOf(governed.files);
	const outcome = await governed.run('execute_command', {
		command: line,
		...(cwd !== undefined ? { cwd } : {})
	});
	return { outcome, changed: changedEntries(before, entriesOf(governed.files)) };
}

function outsideInt001(path: string): boolean {
	return !path.startsWith('src/auth/') && path !== 'src/auth';
}

async function eventsOfType(governed: GovernedShell, type: string) {
	return (await governed.ledger.events()).filter((event) => event.type === type);
}

describe('shell transaction: nothing out of bounds reaches the workspace', () => {
	it('a file swapped for a folder under .git/ is refused as a whole, with later writes', async () => {
		const governed = await start();
		const { outcome, changed } = await command(
			governed,
			// Computed names: no pre-check can see them, only the transaction does.
			"g=$(printf '.g%s' it); rm $g/HEAD; mkdir $g/HEAD; echo x > $g/config; echo ok > src/auth/ok.ts"
		);
		expect(changed).toEqual(['src/auth/ok.ts']);
		expect(outcome.ok).toBe(false);
		if (outcome.ok) return;
		expect(outcome.error.code).toBe('protected_path');
		expect(outcome.error.message).toContain('.git/HEAD');
		expect(outcome.error.message).toContain('.git/config');
		expect(outcome.error.message).toContain('Kept: src/auth/ok.ts');
		const refusals = await eventsOfType(governed, 'change-revert');
		expect(refusals.map((event) => (event as { path: string }).path).sort()).toEqual([
			'.git/HEAD',
			'.git/config'
		]);
		const records = await eventsOfType(governed, 'mutation-record');
		expect(records).toHaveLength(1);
	});

	it('a backslash name is refused up front and never switches off the check of later writes', async () => {
		const governed = await start();
		const { outcome, changed } = await command(
			governed,
			"b='!\\a'; echo x > \"$b\"; echo y > $(printf '.g%s' it)/config; echo z > $(printf '.orch%s' estration)/x"
		);
		expect(changed).toEqual([]);
		expect(outcome.ok).toBe(false);
		expect(outcome.commandOutput).toContain('a backslash is not allowed');
		const after = await command(
			governed,
			"echo y > $(printf '.g%s' it)/config; echo z > $(printf '.orch%s' estration)/x; echo k > src/auth/k.ts"
		);
		expect(after.changed).toEqual(['src/auth/k.ts']);
		expect(after.outcome.ok).toBe(false);
	});

	it('a folder swapped for a file keeps the folder and its out-of-scope files', async () => {
		const governed = await start({
			intentsYaml: `active_intents:
  - id: INT-001
    name: Wide
    status: IN_PROGRESS
    owned_scope: ["src/*"]
`
		});
		const { changed, outcome } = await command(governed, 'd=src/db; rm -r $d; echo x > $d');
		expect(changed).toEqual([]);
		expect(outcome.ok).toBe(false);
		expect(await governed.sandbox.fs.readTextFile('src/db/users.ts')).toBe('export const b = 2;\n');
	});

	it('folders are governed: mkdir -p of protected and out-of-scope folders creates none of them', async () => {
		const governed = await start();
		const { changed, outcome } = await command(
			governed,
			"o=$(printf '.orch%s' estration); g=$(printf '.g%s' it); d=$(printf db); " +
				'mkdir -p $o/newdir $g/refs/heads/evil src/$d/newdir src/auth/newdir'
		);
		expect(changed).toEqual(['src/auth/newdir']);
		expect(outcome.ok).toBe(false);
		const folders = await eventsOfType(governed, 'folder-change');
		expect(folders).toMatchObject([
			{ path: 'src/auth/newdir', change: 'created', contributor: 'ai', intent_id: 'INT-001' }
		]);
	});

	it('rm -r of an empty out-of-scope folder is refused', async () => {
		const governed = await start({ files: { ...startingFiles, 'src/db/empty/.keep': '' } });
		await governed.sandbox.fs.rm('src/db/empty/.keep');
		const { changed, outcome } = await command(
			governed,
			'd=$(printf db); rm -r src/$d/empty; rmdir src/$d/empty'
		);
		expect(changed).toEqual([]);
		expect(outcome.ok).toBe(false);
		expect((await governed.sandbox.fs.stat('src/db/empty'))?.kind).toBe('directory');
	});

	it.each([
		'mkdir .orchestration/audit-dir; mkdir -p .orchestration/new/audit.jsonl',
		'mkdir .ORCHESTRATION; echo x > .ORCHESTRATION/x',
		'mkdir .orchestration.; echo x > .orchestration./x',
		'mkdir -p .Git/hooks; echo x > .Git/hooks/pre-commit',
		'mkdir ".git "; echo x > ".git /x"',
		'echo evil > .intentignore',
		': > .intentignore'
	])('`%s` never reaches the workspace', async (line) => {
		const governed = await start({
			files: { ...startingFiles, '.intentignore': 'INT-002\n' },
			intentsYaml: `active_intents:
  - id: INT-001
    name: Everything
    status: IN_PROGRESS
    owned_scope: ["**"]
`
		});
		const { changed, outcome } = await command(governed, line);
		expect(changed).toEqual([]);
		expect(outcome.ok).toBe(false);
		if (!outcome.ok) expect(outcome.error.code).toBe('protected_path');
	});

	it('mkdir over the ledger file fails in the shell and the ledger file stays a file', async () => {
		const governed = await start();
		await governed.sandbox.fs.rm('.orchestration/audit.jsonl');
		const { changed } = await command(governed, 'mkdir .orchestration/audit.jsonl');
		expect(changed).toEqual([]);
		expect(await governed.sandbox.fs.stat('.orchestration/audit.jsonl')).toBeNull();
	});

	it('legitimate work is kept and recorded: nested folders, NFD names, tar extraction, cd', async () => {
		const governed = await start();
		const nfd = 'src/auth/cafe\u0301.ts';
		const { outcome, changed } = await command(
			governed,
			`mkdir -p src/auth/new/deep && echo a > src/auth/new/deep/a.ts && echo n > '${nfd}' && ` +
				'cd src/auth && tar -cf new.tar new && mkdir unpacked && tar -xf new.tar -C unpacked'
		);
		expect(outcome.ok).toBe(true);
		expect(changed.every((path) => !outsideInt001(path))).toBe(true);
		expect(changed).toContain('src/auth/café.ts'.normalize('NFC'));
		expect(changed).toContain('src/auth/unpacked/new/deep/a.ts');
		const records = await eventsOfType(governed, 'mutation-record');
		const recorded = records.map(
			(event) => (event as { trace: { files: { path: string }[] } }).trace.files[0]?.path
		);
		expect(recorded).toContain('src/auth/café.ts'.normalize('NFC'));
		expect(recorded).toContain('src/auth/unpacked/new/deep/a.ts');
		const cd = await command(governed, 'cd src/auth; echo x > cd.txt');
		expect(cd.outcome.ok).toBe(true);
		expect(cd.changed).toEqual(['src/auth/cd.txt']);
	});

	it('a command that does not change a file leaves its bytes alone (sed -i without a match)', async () => {
		const bytes = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0xff, 0x0a]);
		const governed = await start({ files: { ...startingFiles, 'src/auth/latin1.txt': bytes } });
		const { outcome, changed } = await command(governed, "sed -i 's/zzz/y/' src/auth/latin1.txt");
		expect(outcome.ok).toBe(true);
		expect(changed).toEqual([]);
		expect(await governed.sandbox.fs.readFile('src/auth/latin1.txt')).toEqual(bytes);
		expect(await eventsOfType(governed, 'mutation-record')).toHaveLength(0);
	});

	it.each([
		['src/nope', 'no such folder'],
		['src/auth/jwt.ts', 'is a file'],
		['src/auth/jwt.ts/deeper', 'no such folder'],
		[`src/${'x'.repeat(5_000)}`, 'too long']
	])('a bad cwd %# is invalid_input and names no host path', async (cwd, reason) => {
		const governed = await start();
		const { outcome } = await command(governed, 'echo hi', cwd);
		expect(outcome.ok).toBe(false);
		if (outcome.ok) return;
		expect(outcome.error.code).toBe('invalid_input');
		expect(outcome.error.message).toContain(reason);
		expect(outcome.error.message).not.toContain(process.cwd());
	});
});

describe('complete_intent runs its criteria through the same transaction', () => {
	const intents = `active_intents:
  - id: INT-001
    name: JWT
    status: IN_PROGRESS
    owned_scope: ["src/auth/**", "tests/auth/**"]
    acceptance_criteria:
      - description: auth tests
        run: "sh tests/auth/run.sh"
`;

	it('a criterion script that writes out of scope and into protected paths is refused and reported', async () => {
		const governed = await start({ intentsYaml: intents });
		const script =
			'echo hacked > src/db/users.ts\necho x > .git/config\necho y > .orchestration/evil\n' +
			'echo fine > src/auth/generated.ts\n';
		const written = await governed.run('write_to_file', {
			path: 'tests/auth/run.sh',
			content: script,
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		expect(written.ok).toBe(true);
		const before = entriesOf(governed.files);
		const outcome = await governed.run('complete_intent', { intent_id: 'INT-001' });
		const changed = changedEntries(before, entriesOf(governed.files));
		expect(changed).toEqual(['src/auth/generated.ts']);
		expect(outcome.ok).toBe(false);
		if (outcome.ok) return;
		expect(outcome.error.message).toContain('src/db/users.ts');
		expect(outcome.error.message).toContain('.git/config');
		expect(outcome.error.message).toContain('not completed');
		expect(governed.state.intent('INT-001')?.status).toBe('IN_PROGRESS');
		const refusals = await eventsOfType(governed, 'change-revert');
		expect(refusals.length).toBe(3);
	});

	it('a criterion that stays in bounds completes the intent, its changes recorded', async () => {
		const governed = await start({ intentsYaml: intents });
		await governed.sandbox.fs.writeFile('tests/auth/run.sh', 'echo ok > src/auth/report.txt\n');
		const outcome = await governed.run('complete_intent', { intent_id: 'INT-001' });
		expect(outcome.ok).toBe(true);
		expect(governed.state.intent('INT-001')?.status).toBe('COMPLETED');
		const records = await eventsOfType(governed, 'mutation-record');
		expect(
			records.some(
				(event) =>
					(event as { trace: { files: { path: string }[] } }).trace.files[0]?.path ===
					'src/auth/report.txt'
			)
		).toBe(true);
	});
});

describe("the person's terminal: same transaction, only protected paths refused", () => {
	it('refuses protected paths, commits and records everything else as human', async () => {
		const governed = await start({ intent: null });
		const session = await governed.sandbox.openShell({ cols: 80, rows: 24 });
		if (session.mode !== 'line') throw new Error('expected a line session');
		const before = entriesOf(governed.files);
		const result = await session.run(
			'echo x > src/db/users.ts; mkdir -p .git/evil newdir; echo y > .orchestration/x',
			{ review: governed.pipeline.terminalReview() }
		);
		const changed = changedEntries(before, entriesOf(governed.files));
		expect(changed.sort()).toEqual(['newdir', 'src/db/users.ts']);
		expect(result.changes.map((change) => change.path)).toEqual(['src/db/users.ts']);
		expect(result.refused?.map((entry) => entry.path).sort()).toEqual([
			'.git/evil',
			'.orchestration/x'
		]);
		const records = await eventsOfType(governed, 'mutation-record');
		expect(records).toMatchObject([{ trace: { files: [{ path: 'src/db/users.ts' }] } }]);
		const folders = await eventsOfType(governed, 'folder-change');
		expect(folders).toMatchObject([{ path: 'newdir', contributor: 'human' }]);
		session.dispose();
	});

	it('the person check refuses governance spellings and links, nothing else', () => {
		const file = { kind: 'file' as const, data: new Uint8Array() };
		const change = (path: string) => ({ path, before: { kind: 'absent' as const }, after: file });
		expect(personPathCheck('src/db/x.ts', change('src/db/x.ts'))).toBeNull();
		// Which intents are protected changes only in the intents panel, never from the shell.
		expect(personPathCheck('.intentignore', change('.intentignore'))?.code).toBe('protected_path');
		expect(personPathCheck('.GIT/x', change('.GIT/x'))?.code).toBe('protected_path');
		expect(
			personPathCheck('a', {
				path: 'a',
				before: { kind: 'absent' },
				after: { kind: 'link', target: '.git' }
			})?.code
		).toBe('protected_path');
	});
});
