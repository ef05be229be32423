import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChangeProposal } from '../../../hooks/tools/sandbox-ports.js';
import { commitEveryChange } from '../../commit-every-change.js';
import type { LineShellSession, Sandbox } from '../../sandbox.js';
import { createLocalSandbox } from '../local-sandbox.js';
import { MemoryWorkspaceFiles } from '../memory-workspace-files.js';
import type { WorkspaceFiles } from '../workspace-files.js';
import type { GitRepositoryStore } from './git-repository-store.js';
import { gitSubcommandNames } from './git-subcommand-names.js';
import { gitSubcommands } from './git-subcommands.js';

describe('git in the offline shell', () => {
	let files: MemoryWorkspaceFiles;
	let repository: MemoryWorkspaceFiles;
	let sandbox: Sandbox;
	let shell: LineShellSession;

	/** A person's terminal line: every change committed. */
	const line = async (text: string, review = commitEveryChange) => {
		let output = '';
		const result = await shell.run(text, { review, onOutput: (chunk) => (output += chunk) });
		return { output, exitCode: result.exitCode, changes: result.changes };
	};
	const text = async (path: string) => new TextDecoder().decode(await files.read(path));

	beforeEach(async () => {
		files = new MemoryWorkspaceFiles({
			'src/a.ts': 'export const a = 1;\n',
			'README.md': '# Notes\n'
		});
		repository = new MemoryWorkspaceFiles();
		const store: GitRepositoryStore = { files: repository };
		sandbox = await createLocalSandbox({ files, repository: () => Promise.resolve(store) });
		shell = (await sandbox.openShell({ cols: 80, rows: 24 })) as LineShellSession;
	});
	afterEach(async () => {
		await sandbox.dispose();
	});

	it('says there is no repository before git init, and keeps the repository out of the workspace', async () => {
		const before = await line('git status');
		expect(before.exitCode).toBe(128);
		expect(before.output).toMatch(/not a git repository.*git init/);
		const init = await line('git init');
		expect(init.output).toBe('Initialized empty Git repository in /workspace/.git/\n');
		expect(init.changes).toEqual([]);
		expect(await files.stat('.git')).toBeNull();
		expect(new TextDecoder().decode(await repository.read('HEAD'))).toBe('ref: refs/heads/main\n');
		expect((await line('git init')).output).toMatch(/^Reinitialized existing/);
	});

	it('stages, commits and shows history as git does', async () => {
		await line('git init');
		expect((await line('git status')).output).toContain('No commits yet');
		// An untracked folder shows as the folder, as in git.
		expect((await line('git status -s')).output).toBe('?? README.md\n?? src/\n');
		await line('git add .');
		expect((await line('git status --short')).output).toBe('A  README.md\nA  src/a.ts\n');
		const first = await line('git commit -m "Start"');
		expect(first.output).toMatch(
			/^\[main \(root-commit\) [0-9a-f]{7}\] Start\n 2 files changed, 2 insertions\(\+\)\n$/
		);
		expect((await line('git status')).output).toContain('nothing to commit, working tree clean');

		await line('echo "export const b = 2;" >> src/a.ts');
		expect((await line('git status -s')).output).toBe(' M src/a.ts\n');
		const diff = await line('git diff');
		expect(diff.output).toContain('diff --git a/src/a.ts b/src/a.ts\n');
		expect(diff.output).toContain('@@ -1 +1,2 @@\n export const a = 1;\n+export const b = 2;\n');
		expect((await line('git diff --staged')).output).toBe('');
		const second = await line('git commit -am "Add b"');
		expect(second.output).toMatch(
			/^\[main [0-9a-f]{7}\] Add b\n 1 file changed, 1 insertion\(\+\)\n$/
		);

		const oneline = (await line('git log --oneline')).output.split('\n').filter(Boolean);
		expect(oneline).toHaveLength(2);
		expect(oneline[0]).toMatch(/^[0-9a-f]{7} \(HEAD -> main\) Add b$/);
		expect(oneline[1]).toMatch(/^[0-9a-f]{7} Start$/);
		expect((await line('git log -n 1 --oneline')).output.split('\n').filter(Boolean)).toHaveLength(
			1
		);
		const full = (await line('git log')).output;
		expect(full).toMatch(
			/^commit [0-9a-f]{40} \(HEAD -> main\)\nAuthor: Threadline learner <learner@threadline.invalid>\nDate: {3}\w{3} \w{3} \d+ \d\d:\d\d:\d\d \d{4} [+-]\d{4}\n\n {4}Add b\n/
		);
		const show = (await line('git show HEAD~1')).output;
		expect(show).toContain('    Start\n');
		expect(show).toContain('new file mode 100644');
		expect(show).toContain('--- /dev/null\n+++ b/README.md\n@@ -0,0 +1 @@\n+# Notes\n');
		const head = (await line('git rev-parse HEAD')).output.trim();
		expect(head).toMatch(/^[0-9a-f]{40}$/);
		expect((await line('git rev-parse --short HEAD')).output).toBe(`${head.slice(0, 7)}\n`);
		expect((await line('git rev-parse --abbrev-ref HEAD')).output).toBe('main\n');
	});

	it('uses the configured author', async () => {
		await line('git init');
		await line('git config user.name "Ada Lovelace"');
		await line('git config user.email ada@example.org');
		expect((await line('git config user.name')).output).toBe('Ada Lovelace\n');
		await line('git add README.md && git commit -m one');
		expect((await line('git log')).output).toContain('Author: Ada Lovelace <ada@example.org>\n');
	});

	it('refuses to commit without a message or without changes, saying what to do', async () => {
		await line('git init');
		const noMessage = await line('git commit');
		expect(noMessage.exitCode).toBe(1);
		expect(noMessage.output).toMatch(/no editor.*git commit -m/);
		await line('git add . && git commit -m one');
		const nothing = await line('git commit -m two');
		expect(nothing.exitCode).toBe(1);
		expect(nothing.output).toContain('nothing to commit, working tree clean');
		await line('echo more >> README.md');
		expect((await line('git commit -m two')).output).toContain('no changes added to commit');
		expect((await line('git add nowhere.txt')).output).toBe(
			"fatal: pathspec 'nowhere.txt' did not match any files\n"
		);
	});

	it('switches branches through the governed working tree, and restores files', async () => {
		await line('git init');
		await line('git add . && git commit -m one');
		expect((await line('git checkout -b feature')).output).toBe(
			"Switched to a new branch 'feature'\n"
		);
		await line('echo extra > extra.txt && git add extra.txt && git commit -m two');
		const back = await line('git checkout main');
		expect(back.output).toBe("Switched to branch 'main'\n");
		// The checkout's deletion is the line's change: it went through the line's review.
		expect(back.changes.map((change) => [change.path, change.type])).toEqual([
			['extra.txt', 'deleted']
		]);
		expect(await files.stat('extra.txt')).toBeNull();
		expect((await line('git branch')).output).toBe('  feature\n* main\n');
		await line('git switch feature');
		expect(await text('extra.txt')).toBe('extra\n');

		await line('echo broken > README.md');
		const refused = await line('git switch main');
		expect(refused.exitCode).toBe(0); // README.md is the same on both branches: git keeps the edit
		// On main, extra.txt is not tracked: a new one would be overwritten by feature's.
		await line('echo edited > extra.txt');
		const conflict = await line('git checkout feature');
		expect(conflict.exitCode).toBe(1);
		expect(conflict.output).toContain('would be overwritten by checkout:\n\textra.txt\n');
		expect(await text('extra.txt')).toBe('edited\n');
		expect((await line('git restore extra.txt')).output).toContain(
			"error: pathspec 'extra.txt' did not match any file(s) known to git"
		);
		await line('git restore README.md');
		expect(await text('README.md')).toBe('# Notes\n');
		await line('echo staged > README.md && git add README.md && git restore --staged README.md');
		expect((await line('git status -s')).output).toBe(' M README.md\n?? extra.txt\n');
		await line('git branch other');
		expect((await line('git branch -d main')).output).toMatch(/cannot delete branch 'main'/);
		expect((await line('git branch -d other')).output).toMatch(
			/^Deleted branch other \(was [0-9a-f]{7}\)\.\n$/
		);
	});

	it('leaves the repository untouched when a person-only git command is refused or fails', async () => {
		await line('git init');
		const before = repository.snapshot();
		expect((await line('git commit -m nothing')).exitCode).toBe(1);
		expect(repository.snapshot()).toEqual(before);
	});

	it('gives agents and criteria (exec) read-only git, and names what they may run', async () => {
		await line('git init');
		await line('git add . && git commit -m one');
		const before = repository.snapshot();
		for (const command of [
			'git add README.md',
			'git commit --allow-empty -m sneaky',
			'git checkout -b agent',
			'git branch agent',
			'git restore README.md',
			'git config user.name Agent',
			'git init'
		]) {
			const result = await sandbox.exec(command, { review: commitEveryChange });
			expect(result.exitCode, command).toBe(1);
			expect(result.output, command).toMatch(
				/only a person's terminal may do here.*git status, diff, log/
			);
		}
		expect(repository.snapshot()).toEqual(before);
		const log = await sandbox.exec('git log --oneline', { review: commitEveryChange });
		expect(log.exitCode).toBe(0);
		expect(log.output).toMatch(/^[0-9a-f]{7} \(HEAD -> main\) one\n$/);
		expect((await sandbox.exec('git status -s', { review: commitEveryChange })).output).toBe('');
		expect((await sandbox.exec('git branch', { review: commitEveryChange })).output).toBe(
			'* main\n'
		);
	});

	it('keeps .git out of reach of every other command', async () => {
		await line('git init');
		// The shell has no .git folder: writing one is a workspace path the review refuses.
		let proposed: string[] = [];
		const review = async (proposal: ChangeProposal) => {
			proposed = proposal.entries.map((entry) => entry.path);
		};
		await line('mkdir -p .git && echo "ref: refs/heads/evil" > .git/HEAD', review);
		expect(proposed).toContain('.git/HEAD');
		expect(new TextDecoder().decode(await repository.read('HEAD'))).toBe('ref: refs/heads/main\n');
		expect((await line('git add .git')).output).toMatch(/repository's own files are not tracked/);
	});

	it('offers Tab completion exactly the subcommands it runs', () => {
		expect([...gitSubcommandNames]).toEqual(Object.keys(gitSubcommands).sort());
	});

	it('never stores a name git cannot read back, so a planted `.Git` cannot break the repository', async () => {
		await line('git init && git add . && git commit -qm one');
		// An agent (exec) plants names git refuses in a tree.
		await sandbox.exec('printf x > src/.Git; printf y > src/git~1', { review: commitEveryChange });
		const bulk = await line('git add -A');
		expect(bulk.exitCode).toBe(0);
		expect(bulk.output).toContain(
			"warning: skipped 'src/.Git': git cannot store a file named '.Git'"
		);
		expect((await line('echo more >> README.md && git commit -qam two')).exitCode).toBe(0);
		expect((await line('git status -s')).exitCode).toBe(0);
		expect((await line('git log --oneline')).output.split('\n').filter(Boolean)).toHaveLength(2);
		const named = await line('git add src/.Git');
		expect(named.exitCode).toBe(128);
		expect(named.output).toContain("error: invalid path 'src/.Git'");
	});

	it('keeps line breaks and angle brackets out of the author (no forged commit headers)', async () => {
		await line('git init');
		await line(`export GIT_AUTHOR_NAME=$'Mallory> 1 +0000\\ncommitter Forged'`);
		await line('git add README.md && git commit -qm one');
		const log = (await line('git log')).output;
		expect(log).toContain('Author: Mallory 1 +0000committer Forged <learner@threadline.invalid>');
	});

	it('diffs a whole rewritten large file without stalling the shell', async () => {
		const lines = (prefix: string) =>
			Array.from({ length: 10_000 }, (_, index) => `${prefix} ${index}`).join('\n') + '\n';
		await files.write('big.txt', new TextEncoder().encode(lines('old')));
		await line('git init && git add big.txt && git commit -qm one');
		await files.write('big.txt', new TextEncoder().encode(lines('new')));
		const diff = await line('git diff');
		expect(diff.output).toContain('@@ -1,10000 +1,10000 @@\n-old 0\n');
		expect((await line('git commit -am two')).output).toContain(
			'1 file changed, 10000 insertions(+), 10000 deletions(-)'
		);
	}, 30_000);

	it('gives npm scripts read-only git: a script may come from the agent', async () => {
		await files.write(
			'package.json',
			new TextEncoder().encode(
				JSON.stringify({ scripts: { test: 'git commit --allow-empty -m pwned' } })
			)
		);
		await line('git init && git add README.md && git commit -qm one');
		const before = repository.snapshot();
		const run = await line('npm test');
		expect(run.exitCode).not.toBe(0);
		expect(run.output).toMatch(/an npm script may not do/);
		expect(repository.snapshot()).toEqual(before);
	});

	it('refuses to write governance files into the working tree, before changing anything', async () => {
		await files.makeDirectory('.orchestration');
		await files.write('.orchestration/active_intents.yaml', new TextEncoder().encode('a: 1\n'));
		await line('git init && git add -A && git add -f .orchestration && git commit -qm one');
		const removed = await line('git rm .orchestration/active_intents.yaml');
		expect(removed.exitCode).toBe(1);
		expect(removed.output).toMatch(/change only through governance/);
		expect((await line('git status -s')).output).toBe('');
		await files.write('.orchestration/active_intents.yaml', new TextEncoder().encode('a: 2\n'));
		expect((await line('git restore .orchestration/active_intents.yaml')).exitCode).toBe(1);
		const everything = await line('git restore .');
		expect(everything.output).toContain(
			'warning: left .orchestration/active_intents.yaml as it is'
		);
	});

	it('leaves untracked governance files alone, as if .git/info/exclude listed them', async () => {
		const write = (path: string, content: string) =>
			files.write(path, new TextEncoder().encode(content));
		await files.makeDirectory('.orchestration');
		await write('.orchestration/active_intents.yaml', 'a: 1\n');
		await write('.intentignore', 'INT-001\n');
		// A spelling the governance core folds to .orchestration (case, trailing dot).
		await files.makeDirectory('.Orchestration.');
		await write('.Orchestration./x.json', '{}\n');
		await line('git init');
		expect((await line('git status -s')).output).toBe('?? README.md\n?? src/\n');
		expect((await line('git status')).output).not.toMatch(/orchestration|intentignore/i);
		const added = await line('git add -A && git commit -qm one && git status -s');
		expect(added.exitCode, added.output).toBe(0);
		expect(added.output).toBe('');
		const shown = (await line('git show HEAD')).output;
		expect(shown).toContain('README.md');
		expect(shown).not.toMatch(/orchestration|intentignore/i);

		const named = await line('git add .intentignore');
		expect(named.exitCode).toBe(1);
		expect(named.output).toContain('The following paths are ignored');
		expect(named.output).toContain('hint: Use -f if you really want to add them.');
		// Forced, it is tracked, and its changes show like any tracked file's.
		expect((await line('git add -f .intentignore && git commit -qm two')).exitCode).toBe(0);
		await write('.intentignore', '# none\n');
		expect((await line('git status -s')).output).toBe(' M .intentignore\n');
	});

	it('leaves governance files as they are on a branch switch, and can switch back', async () => {
		const write = (path: string, content: string) =>
			files.write(path, new TextEncoder().encode(content));
		await files.makeDirectory('.orchestration');
		await write('.orchestration/active_intents.yaml', 'a: 1\n');
		await write('.intentignore', 'INT-001\n');
		await line(
			'git init && git add -A && git add -f .orchestration .intentignore && git commit -qm one && git switch -c other'
		);
		// Another version of each on the other branch (written by the store, as a past session did).
		await write('.intentignore', '# nothing protected\n');
		await write('.orchestration/active_intents.yaml', 'a: 2\n');
		await write('src/a.ts', 'export const a = 2;\n');
		const committed = await line('git add -A && git commit -qm two');
		expect(committed.exitCode, committed.output).toBe(0);

		const switched = await line('git switch main');
		expect(switched.exitCode, switched.output).toBe(0);
		expect(await text('src/a.ts')).toBe('export const a = 1;\n');
		expect(await text('.intentignore')).toBe('# nothing protected\n');
		expect(await text('.orchestration/active_intents.yaml')).toBe('a: 2\n');
		expect(switched.output).toContain(
			'warning: left .intentignore as it is: it changes only through governance'
		);
		expect(switched.changes.map((change) => change.path)).toEqual(['src/a.ts']);

		const back = await line('git switch other');
		expect(back.exitCode, back.output).toBe(0);
		expect(await text('src/a.ts')).toBe('export const a = 2;\n');
	});

	it('reads revisions and paths the way git does, and checks messages and branch names', async () => {
		await line('git init && echo one > a.txt && git add -A && git commit -qm one');
		await line('echo two >> a.txt && git rm -q README.md && git commit -qam two');
		const between = (await line('git diff HEAD~1 HEAD')).output;
		expect(between).toContain('diff --git a/README.md b/README.md\ndeleted file mode 100644');
		expect(between).toContain('+two');
		expect((await line('git diff HEAD~1 -- README.md')).output).toContain('deleted file mode');
		expect((await line('git commit --allow-empty -m "   "')).output).toBe(
			'Aborting commit due to empty commit message.\n'
		);
		await line('echo three >> a.txt');
		expect((await line('git commit -qam "three"')).output).toBe('');
		expect((await line('git switch -c "a b"')).output).toBe(
			"fatal: 'a b' is not a valid branch name\n"
		);
		expect((await line('git branch -bad')).exitCode).not.toBe(0);
	});

	it('writes nothing to the repository once the line was stopped (Ctrl+C mid-command)', async () => {
		await line('git init && git add -A && git commit -qm one');
		const before = repository.snapshot();
		// A slow repository: reads take long enough for Ctrl+C to land mid-commit.
		const slow = new MemoryWorkspaceFiles();
		for (const [path, bytes] of before) {
			const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
			if (parent) await makeFolders(slow, parent);
			await slow.write(path, bytes);
		}
		const read = slow.read.bind(slow);
		slow.read = async (path) => {
			await new Promise((resolve) => setTimeout(resolve, 60));
			return read(path);
		};
		const slowSandbox = await createLocalSandbox({
			files,
			repository: () => Promise.resolve({ files: slow })
		});
		try {
			const terminal = (await slowSandbox.openShell({ cols: 80, rows: 24 })) as LineShellSession;
			// A command that touches only the repository, so nothing else stops it once stopped.
			const controller = new AbortController();
			const running = terminal.run('git branch feature', {
				review: commitEveryChange,
				signal: controller.signal
			});
			setTimeout(() => controller.abort(), 100);
			const result = await running;
			expect(result.interrupted).toBe(true);
			// Long enough for the orphaned command to have finished, had it been allowed to write.
			await new Promise((resolve) => setTimeout(resolve, 3_000));
			expect(slow.snapshot()).toEqual(before);
		} finally {
			await slowSandbox.dispose();
		}
	}, 20_000);

	it('says which git commands need the network, and which are not here', async () => {
		await line('git init');
		expect((await line('git push')).output).toMatch(/needs a remote repository and the network/);
		expect((await line('git stash')).output).toMatch(
			/git stash is not available in the offline sandbox\. It runs: add, branch/
		);
		expect((await line('git --version')).output).toMatch(/^git version .*isomorphic-git, offline/);
		expect((await line('git log --graph')).exitCode).toBe(129);
	});

	it('writes a repository real git reads: same commits, same trees', async () => {
		const hasGit = (() => {
			try {
				execFileSync('git', ['--version']);
				return true;
			} catch {
				return false;
			}
		})();
		expect(hasGit, 'the CI image has git (it cloned the repository)').toBe(true);
		await line('git init');
		await line('git add . && git commit -m one');
		await line('mkdir -p lib && echo "x" > lib/x.js && git add -A && git commit -m two');
		const folder = mkdtempSync(join(tmpdir(), 'threadline-git-'));
		try {
			await copyStore(files, folder, (path) => path);
			await copyStore(repository, folder, (path) => `.git/${path}`);
			const real = (...args: string[]) =>
				execFileSync('git', ['-C', folder, ...args], { encoding: 'utf8' });
			expect(real('fsck', '--strict')).toBe('');
			expect(real('log', '--format=%s').trim().split('\n')).toEqual(['two', 'one']);
			expect(real('ls-tree', '-r', '--name-only', 'HEAD').trim().split('\n')).toEqual([
				'README.md',
				'lib/x.js',
				'src/a.ts'
			]);
			expect(real('status', '--porcelain')).toBe('');
			expect(real('rev-parse', 'HEAD').trim()).toBe(
				(await line('git rev-parse HEAD')).output.trim()
			);
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
	});
});

async function copyStore(
	store: WorkspaceFiles & { snapshot(): Map<string, Uint8Array> },
	folder: string,
	place: (path: string) => string
): Promise<void> {
	for (const [path, bytes] of store.snapshot()) {
		const target = join(folder, place(path));
		mkdirSync(dirname(target), { recursive: true });
		writeFileSync(target, bytes);
	}
}

async function makeFolders(store: MemoryWorkspaceFiles, folder: string): Promise<void> {
	let path = '';
	for (const segment of folder.split('/')) {
		path = path ? `${path}/${segment}` : segment;
		if (!(await store.stat(path))) await store.makeDirectory(path);
	}
}
