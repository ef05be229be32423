import { committingEverything } from './committing-sandbox.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileChange, FileWatchEvent } from '../../hooks/tools/sandbox-ports.js';
import type { Sandbox } from '../sandbox.js';

/**
 * The behaviour every Sandbox backend must share, so tools and post-hooks can rely on it whatever
 * runs underneath. `createSandbox` must return a fresh sandbox over an EMPTY workspace each time;
 * each test disposes it.
 *
 * Commands used are the ones both backends have: echo, cat, ls, grep, sed, rm, mv, mkdir, sleep.
 */
export function describeSandboxContract(name: string, createSandbox: () => Promise<Sandbox>): void {
	describe(`Sandbox contract: ${name}`, () => {
		let sandbox: Sandbox;
		const decoder = new TextDecoder();
		const text = (bytes: Uint8Array | null) => (bytes === null ? null : decoder.decode(bytes));
		const summarize = (changes: FileChange[]) =>
			changes.map((change) => ({
				path: change.path,
				type: change.type,
				before: text(change.before),
				after: text(change.after)
			}));

		beforeEach(async () => {
			// The contract is about what commands do; governing them is tested with a review.
			sandbox = committingEverything(await createSandbox());
		});

		afterEach(async () => {
			await sandbox.dispose();
		});

		describe('fs', () => {
			it('starts empty', async () => {
				expect(await sandbox.fs.readdir('')).toEqual([]);
				expect(await sandbox.fs.stat('')).toEqual({ kind: 'directory', size: 0 });
				expect(await sandbox.fs.stat('.')).toEqual({ kind: 'directory', size: 0 });
			});

			it('writes and reads text, creating parent folders', async () => {
				await sandbox.fs.writeFile('src/deep/note.txt', 'héllo ✓\n');
				expect(await sandbox.fs.readTextFile('src/deep/note.txt')).toBe('héllo ✓\n');
				expect(await sandbox.fs.stat('src/deep')).toEqual({ kind: 'directory', size: 0 });
				expect(await sandbox.fs.stat('src/deep/note.txt')).toEqual({
					kind: 'file',
					size: new TextEncoder().encode('héllo ✓\n').byteLength
				});
			});

			it('round-trips arbitrary bytes', async () => {
				const bytes = Uint8Array.from([0, 255, 10, 13, 128, 1]);
				await sandbox.fs.writeFile('data.bin', bytes);
				expect(Array.from(await sandbox.fs.readFile('data.bin'))).toEqual(Array.from(bytes));
			});

			it('replaces the whole content on overwrite', async () => {
				await sandbox.fs.writeFile('a.txt', 'a long first version');
				await sandbox.fs.writeFile('a.txt', 'short');
				expect(await sandbox.fs.readTextFile('a.txt')).toBe('short');
			});

			it('normalizes paths', async () => {
				await sandbox.fs.writeFile('./src//x/../a.ts', 'x');
				expect(await sandbox.fs.readTextFile('src/a.ts')).toBe('x');
				expect((await sandbox.fs.readdir('src/')).map((entry) => entry.name)).toEqual(['a.ts']);
			});

			it('returns null from stat for missing paths and rejects reading them', async () => {
				await sandbox.fs.writeFile('file.txt', 'x');
				expect(await sandbox.fs.stat('missing.txt')).toBeNull();
				expect(await sandbox.fs.stat('file.txt/inside')).toBeNull();
				await expect(sandbox.fs.readFile('missing.txt')).rejects.toThrow(/missing\.txt/);
				await expect(sandbox.fs.readTextFile('missing.txt')).rejects.toThrow();
			});

			it('refuses to read a folder or write over one', async () => {
				await sandbox.fs.mkdir('folder');
				await expect(sandbox.fs.readFile('folder')).rejects.toThrow();
				await expect(sandbox.fs.writeFile('folder', 'x')).rejects.toThrow();
				await expect(sandbox.fs.writeFile('', 'x')).rejects.toThrow();
			});

			it('lists a folder sorted, with kinds', async () => {
				await sandbox.fs.writeFile('b.txt', 'b');
				await sandbox.fs.writeFile('a.txt', 'a');
				await sandbox.fs.mkdir('c');
				expect(await sandbox.fs.readdir('.')).toEqual([
					{ name: 'a.txt', kind: 'file' },
					{ name: 'b.txt', kind: 'file' },
					{ name: 'c', kind: 'directory' }
				]);
				await expect(sandbox.fs.readdir('missing')).rejects.toThrow();
				await expect(sandbox.fs.readdir('a.txt')).rejects.toThrow();
			});

			it('creates folders, recursively only when asked', async () => {
				await expect(sandbox.fs.mkdir('x/y')).rejects.toThrow();
				await sandbox.fs.mkdir('x/y', { recursive: true });
				expect(await sandbox.fs.stat('x/y')).toEqual({ kind: 'directory', size: 0 });
				await expect(sandbox.fs.mkdir('x')).rejects.toThrow();
				await sandbox.fs.mkdir('x', { recursive: true });
				await sandbox.fs.writeFile('file.txt', 'x');
				await expect(sandbox.fs.mkdir('file.txt', { recursive: true })).rejects.toThrow();
				await expect(sandbox.fs.mkdir('file.txt/sub', { recursive: true })).rejects.toThrow();
			});

			it('removes files, and folders only with recursive', async () => {
				await sandbox.fs.writeFile('dir/a.txt', 'a');
				await sandbox.fs.writeFile('dir/sub/b.txt', 'b');
				await sandbox.fs.writeFile('single.txt', 's');
				await sandbox.fs.rm('single.txt');
				expect(await sandbox.fs.stat('single.txt')).toBeNull();
				await expect(sandbox.fs.rm('dir')).rejects.toThrow();
				expect(await sandbox.fs.stat('dir/a.txt')).not.toBeNull();
				await sandbox.fs.rm('dir', { recursive: true });
				expect(await sandbox.fs.stat('dir')).toBeNull();
				await expect(sandbox.fs.rm('missing.txt')).rejects.toThrow();
			});

			it('refuses to remove the workspace root', async () => {
				await sandbox.fs.writeFile('keep.txt', 'k');
				await expect(sandbox.fs.rm('', { recursive: true })).rejects.toThrow();
				await expect(sandbox.fs.rm('.', { recursive: true })).rejects.toThrow();
				expect(await sandbox.fs.readTextFile('keep.txt')).toBe('k');
			});

			it('renames files and folders', async () => {
				await sandbox.fs.writeFile('old.txt', 'content');
				await sandbox.fs.rename('old.txt', 'moved/new.txt');
				expect(await sandbox.fs.stat('old.txt')).toBeNull();
				expect(await sandbox.fs.readTextFile('moved/new.txt')).toBe('content');

				await sandbox.fs.writeFile('moved/sub/deep.txt', 'deep');
				await sandbox.fs.rename('moved', 'renamed');
				expect(await sandbox.fs.stat('moved')).toBeNull();
				expect(await sandbox.fs.readTextFile('renamed/new.txt')).toBe('content');
				expect(await sandbox.fs.readTextFile('renamed/sub/deep.txt')).toBe('deep');

				await expect(sandbox.fs.rename('missing.txt', 'x.txt')).rejects.toThrow();
				await expect(sandbox.fs.rename('renamed', 'renamed/inside')).rejects.toThrow();
			});

			it('replaces an existing file on rename', async () => {
				await sandbox.fs.writeFile('a.txt', 'a');
				await sandbox.fs.writeFile('b.txt', 'b');
				await sandbox.fs.rename('a.txt', 'b.txt');
				expect(await sandbox.fs.readTextFile('b.txt')).toBe('a');
				expect(await sandbox.fs.stat('a.txt')).toBeNull();
			});

			it.each(['../outside.txt', 'src/../../outside.txt', '/etc/passwd', '..'])(
				'rejects the escaping path %s everywhere',
				async (path) => {
					await sandbox.fs.writeFile('inside.txt', 'i');
					const escape = /escapes the workspace root|absolute/;
					await expect(sandbox.fs.readFile(path)).rejects.toThrow(escape);
					await expect(sandbox.fs.readTextFile(path)).rejects.toThrow(escape);
					await expect(sandbox.fs.writeFile(path, 'x')).rejects.toThrow(escape);
					await expect(sandbox.fs.stat(path)).rejects.toThrow(escape);
					await expect(sandbox.fs.readdir(path)).rejects.toThrow(escape);
					await expect(sandbox.fs.mkdir(path, { recursive: true })).rejects.toThrow(escape);
					await expect(sandbox.fs.rm(path, { recursive: true })).rejects.toThrow(escape);
					await expect(sandbox.fs.rename('inside.txt', path)).rejects.toThrow(escape);
					await expect(sandbox.fs.rename(path, 'inside.txt')).rejects.toThrow(escape);
					expect(await sandbox.fs.readTextFile('inside.txt')).toBe('i');
				}
			);

			it('does not report its own writes to watchers', async () => {
				const events: FileWatchEvent[] = [];
				sandbox.fs.watch((event) => events.push(event));
				await sandbox.fs.writeFile('a.txt', 'a');
				await sandbox.fs.rename('a.txt', 'b.txt');
				await sandbox.fs.rm('b.txt');
				expect(events).toEqual([]);
			});
		});

		describe('exec as a transaction (review)', () => {
			it('proposes files and folders before any reaches the workspace, commits only the chosen paths', async () => {
				await sandbox.fs.writeFile('keep.txt', 'old\n');
				let seenBeforeCommit: string | null = 'unset';
				let proposed: { path: string; before: string; after: string }[] = [];
				const result = await sandbox.exec(
					'mkdir -p a/b && echo new > a/b/c.txt && echo changed > keep.txt && mkdir refused',
					{
						review: async (proposal) => {
							proposed = proposal.entries.map((entry) => ({
								path: entry.path,
								before: entry.before.kind,
								after: entry.after.kind
							}));
							seenBeforeCommit = await sandbox.fs.readTextFile('keep.txt');
							expect(await sandbox.fs.stat('a')).toBeNull();
							await proposal.commit(['a', 'a/b', 'a/b/c.txt']);
						}
					}
				);
				expect(seenBeforeCommit).toBe('old\n');
				expect(proposed).toEqual([
					{ path: 'a', before: 'absent', after: 'folder' },
					{ path: 'a/b', before: 'absent', after: 'folder' },
					{ path: 'a/b/c.txt', before: 'absent', after: 'file' },
					{ path: 'keep.txt', before: 'file', after: 'file' },
					{ path: 'refused', before: 'absent', after: 'folder' }
				]);
				expect(summarize(result.changes)).toEqual([
					{ path: 'a/b/c.txt', type: 'created', before: null, after: 'new\n' }
				]);
				expect(result.refused?.map((entry) => entry.path)).toEqual(['keep.txt', 'refused']);
				expect(await sandbox.fs.readTextFile('a/b/c.txt')).toBe('new\n');
				expect(await sandbox.fs.readTextFile('keep.txt')).toBe('old\n');
				expect(await sandbox.fs.stat('refused')).toBeNull();
			});

			it('commits nothing when the review does not commit, and reports file↔folder swaps', async () => {
				await sandbox.fs.writeFile('swap', 'file\n');
				await sandbox.fs.mkdir('folder');
				let proposed: string[] = [];
				const result = await sandbox.exec(
					'rm swap && mkdir swap && rmdir folder && echo f > folder',
					{
						review: async (proposal) => {
							proposed = proposal.entries.map(
								(entry) => `${entry.path}:${entry.before.kind}->${entry.after.kind}`
							);
						}
					}
				);
				expect(proposed).toEqual(['folder:folder->file', 'swap:file->folder']);
				expect(result.changes).toEqual([]);
				expect(await sandbox.fs.readTextFile('swap')).toBe('file\n');
				expect((await sandbox.fs.stat('folder'))?.kind).toBe('directory');
			});
		});

		describe('exec', () => {
			it('reports a file created by a redirect, readable through fs', async () => {
				const result = await sandbox.exec('echo hello > note.txt');
				expect(result.exitCode).toBe(0);
				expect(result.interrupted).toBe(false);
				expect(summarize(result.changes)).toEqual([
					{ path: 'note.txt', type: 'created', before: null, after: 'hello\n' }
				]);
				expect(await sandbox.fs.readTextFile('note.txt')).toBe('hello\n');
			});

			it('reports a deletion with the content before', async () => {
				await sandbox.fs.writeFile('doomed.txt', 'last words\n');
				const result = await sandbox.exec('rm doomed.txt');
				expect(result.exitCode).toBe(0);
				expect(summarize(result.changes)).toEqual([
					{ path: 'doomed.txt', type: 'deleted', before: 'last words\n', after: null }
				]);
				expect(await sandbox.fs.stat('doomed.txt')).toBeNull();
			});

			it('reports an in-place edit by sed -i as modified', async () => {
				await sandbox.fs.writeFile('src/config.txt', 'mode=dev\nport=1\n');
				const result = await sandbox.exec("sed -i 's/dev/prod/' src/config.txt");
				expect(result.exitCode).toBe(0);
				expect(summarize(result.changes)).toEqual([
					{
						path: 'src/config.txt',
						type: 'modified',
						before: 'mode=dev\nport=1\n',
						after: 'mode=prod\nport=1\n'
					}
				]);
			});

			it('reports a rename as a delete plus a create', async () => {
				await sandbox.fs.writeFile('from.txt', 'moving\n');
				const result = await sandbox.exec('mv from.txt to.txt');
				expect(result.exitCode).toBe(0);
				expect(summarize(result.changes)).toEqual([
					{ path: 'from.txt', type: 'deleted', before: 'moving\n', after: null },
					{ path: 'to.txt', type: 'created', before: null, after: 'moving\n' }
				]);
			});

			it('reports files removed with a folder', async () => {
				await sandbox.fs.writeFile('build/a.js', 'a');
				await sandbox.fs.writeFile('build/lib/b.js', 'b');
				const result = await sandbox.exec('rm -r build');
				expect(result.exitCode).toBe(0);
				expect(summarize(result.changes)).toEqual([
					{ path: 'build/a.js', type: 'deleted', before: 'a', after: null },
					{ path: 'build/lib/b.js', type: 'deleted', before: 'b', after: null }
				]);
			});

			it('leaves out files that end as they began', async () => {
				await sandbox.fs.writeFile('same.txt', 'same\n');
				const result = await sandbox.exec(
					'echo other > same.txt && echo same > same.txt && echo t > temp.txt && rm temp.txt'
				);
				expect(result.exitCode).toBe(0);
				expect(result.changes).toEqual([]);
			});

			it('reports nothing for read-only commands', async () => {
				await sandbox.fs.writeFile('a.txt', 'alpha\n');
				const result = await sandbox.exec('cat a.txt && ls');
				expect(result.changes).toEqual([]);
			});

			it('shows ls, cat and grep -r output', async () => {
				await sandbox.fs.writeFile('README.md', '# Title\nTODO: write docs\n');
				await sandbox.fs.writeFile('src/app.ts', 'const x = 1; // TODO: rename\n');
				await sandbox.fs.writeFile('src/util.ts', 'export {};\n');

				const listing = await sandbox.exec('ls');
				expect(listing.exitCode).toBe(0);
				expect(listing.output.split(/\s+/).filter(Boolean)).toEqual(['README.md', 'src']);

				const cat = await sandbox.exec('cat README.md');
				expect(cat.output).toBe('# Title\nTODO: write docs\n');

				const grep = await sandbox.exec('grep -r TODO .');
				expect(grep.exitCode).toBe(0);
				const lines = grep.output.trim().split('\n').sort();
				expect(lines).toHaveLength(2);
				expect(lines[0]).toMatch(/README\.md:TODO: write docs$/);
				expect(lines[1]).toMatch(/src\/app\.ts:const x = 1; \/\/ TODO: rename$/);
			});

			it('includes stderr in the output', async () => {
				const result = await sandbox.exec('echo visible; echo complaint >&2');
				expect(result.output).toContain('visible');
				expect(result.output).toContain('complaint');
			});

			it('returns the exit code of failing commands', async () => {
				const missing = await sandbox.exec('cat missing.txt');
				expect(missing.exitCode).not.toBe(0);
				expect(missing.output).toMatch(/missing\.txt/);
				expect(missing.interrupted).toBe(false);

				expect((await sandbox.exec('false')).exitCode).toBe(1);
				expect((await sandbox.exec('exit 3')).exitCode).toBe(3);
				expect((await sandbox.exec('grep nothing-matches-this /dev/null')).exitCode).toBe(1);
				const unknown = await sandbox.exec('definitely-not-a-command-xyz');
				expect(unknown.exitCode).toBe(127);
			});

			it('discards output sent to /dev/null without touching the workspace', async () => {
				const result = await sandbox.exec('echo gone > /dev/null && echo kept');
				expect(result.exitCode).toBe(0);
				expect(result.output).toBe('kept\n');
				expect(result.changes).toEqual([]);
				expect(await sandbox.fs.readdir('')).toEqual([]);
			});

			it('runs in the cwd option, reporting workspace-relative paths', async () => {
				await sandbox.fs.writeFile('src/inner.ts', 'x');
				await sandbox.fs.writeFile('top.ts', 'y');
				const listing = await sandbox.exec('ls', { cwd: 'src' });
				expect(listing.output.trim()).toBe('inner.ts');

				const write = await sandbox.exec('echo made > here.txt', { cwd: 'src/' });
				expect(summarize(write.changes)).toEqual([
					{ path: 'src/here.txt', type: 'created', before: null, after: 'made\n' }
				]);
			});

			it('rejects a cwd outside the workspace or missing', async () => {
				await expect(sandbox.exec('ls', { cwd: '../' })).rejects.toThrow(/escapes/);
				await expect(sandbox.exec('ls', { cwd: 'no/such/folder' })).rejects.toThrow();
			});

			it('calls onOutput with the output', async () => {
				const chunks: string[] = [];
				const result = await sandbox.exec('echo streamed', {
					onOutput: (chunk) => chunks.push(chunk)
				});
				expect(chunks.join('')).toBe(result.output);
				expect(result.output).toContain('streamed');
			});

			it('stops a command at its timeout with exit code 124 and keeps earlier changes', async () => {
				const started = Date.now();
				const result = await sandbox.exec(
					'echo early > early.txt; sleep 10; echo late > late.txt',
					{
						timeoutMs: 300
					}
				);
				expect(Date.now() - started).toBeLessThan(5_000);
				expect(result.exitCode).toBe(124);
				expect(result.interrupted).toBe(true);
				expect(result.output).toMatch(/timed out/i);
				expect(result.changes.map((change) => change.path)).toEqual(['early.txt']);
				expect(await sandbox.fs.stat('late.txt')).toBeNull();
			});

			it('stops a command when the signal aborts', async () => {
				const controller = new AbortController();
				setTimeout(() => controller.abort(), 100);
				const result = await sandbox.exec('sleep 10', { signal: controller.signal });
				expect(result.exitCode).toBe(124);
				expect(result.interrupted).toBe(true);
			});

			it('does not run a command whose signal is already aborted', async () => {
				const controller = new AbortController();
				controller.abort();
				const result = await sandbox.exec('echo x > never.txt', { signal: controller.signal });
				expect(result.exitCode).toBe(124);
				expect(result.interrupted).toBe(true);
				expect(await sandbox.fs.stat('never.txt')).toBeNull();
			});

			it('notifies watchers of the changes a command made', async () => {
				await sandbox.fs.writeFile('old.txt', 'old');
				const events: FileWatchEvent[] = [];
				const unsubscribe = sandbox.fs.watch((event) => events.push(event));
				await sandbox.exec('echo new > new.txt && rm old.txt');
				expect(events).toEqual(
					expect.arrayContaining([
						{ type: 'created', path: 'new.txt' },
						{ type: 'deleted', path: 'old.txt' }
					])
				);
				expect(events).toHaveLength(2);
				unsubscribe();
				await sandbox.exec('echo more > more.txt');
				expect(events).toHaveLength(2);
			});
		});

		describe('lifecycle', () => {
			it('describes its capabilities', () => {
				expect(sandbox.capabilities.kind).toBe(sandbox.kind);
				expect(sandbox.capabilities.description.length).toBeGreaterThan(0);
				expect(sandbox.capabilities.commands).toEqual(
					expect.arrayContaining(['ls', 'cat', 'grep', 'sed', 'echo', 'rm', 'mv', 'mkdir'])
				);
			});

			it('refuses work after dispose, and dispose is idempotent', async () => {
				await sandbox.dispose();
				await sandbox.dispose();
				await expect(sandbox.exec('echo hi')).rejects.toThrow(/disposed/);
				await expect(sandbox.fs.readdir('')).rejects.toThrow(/disposed/);
			});
		});
	});
}
