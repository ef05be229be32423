import { describe, expect, it } from 'vitest';
import { InMemoryFileSystem } from '../../../hooks/workspace/in-memory-file-system.js';
import { Workspace } from './workspace.svelte.js';

async function workspaceWith(files: Record<string, string | Uint8Array>) {
	const fs = new InMemoryFileSystem(files);
	const workspace = new Workspace(fs);
	await workspace.refresh();
	return { fs, workspace };
}

describe('Workspace', () => {
	it('lists files and folders and opens a file in a tab', async () => {
		const { workspace } = await workspaceWith({
			'src/a.ts': 'export {};\n',
			'README.md': '# hi\n'
		});
		expect([...workspace.files.keys()].sort()).toEqual(['README.md', 'src/a.ts']);
		expect(workspace.folders.has('src')).toBe(true);
		await workspace.open('src/a.ts');
		expect(workspace.activeFile?.content).toBe('export {};\n');
		expect(workspace.expanded.has('src')).toBe(true);
	});

	it('tracks dirty state and saves as a person', async () => {
		const fs = new InMemoryFileSystem({ 'a.ts': 'one' });
		const saved: [string, string | Uint8Array | null][] = [];
		const workspace = new Workspace(fs, {
			saveAsHuman: async (path, content) => {
				saved.push([path, content]);
				await fs.writeFile(path, content ?? '');
			}
		});
		await workspace.refresh();
		await workspace.open('a.ts');
		workspace.edit('a.ts', 'two');
		expect(workspace.isDirty('a.ts')).toBe(true);
		expect(workspace.dirtyCount).toBe(1);
		expect(await workspace.save('a.ts')).toBe(true);
		expect(workspace.isDirty('a.ts')).toBe(false);
		expect(saved).toEqual([['a.ts', 'two']]);
		expect(await fs.readTextFile('a.ts')).toBe('two');
	});

	it('reloads clean editors and flags a conflict on dirty ones when a command changes the file', async () => {
		const { workspace } = await workspaceWith({ 'clean.ts': 'a', 'dirty.ts': 'b' });
		await workspace.open('clean.ts');
		await workspace.open('dirty.ts');
		workspace.edit('dirty.ts', 'my edit');
		const encode = (text: string) => new TextEncoder().encode(text);
		await workspace.applyChanges([
			{ path: 'clean.ts', type: 'modified', before: encode('a'), after: encode('from shell') },
			{ path: 'dirty.ts', type: 'modified', before: encode('b'), after: encode('from shell') },
			{ path: 'note.txt', type: 'created', before: null, after: encode('hello\n') }
		]);
		expect(workspace.tabs.find((tab) => tab.path === 'clean.ts')?.content).toBe('from shell');
		const dirty = workspace.tabs.find((tab) => tab.path === 'dirty.ts');
		expect(dirty?.content).toBe('my edit');
		expect(dirty?.conflict?.diskContent).toBe('from shell');
		expect(workspace.files.has('note.txt')).toBe(true);
		workspace.resolveConflict('dirty.ts', 'take-theirs');
		expect(workspace.tabs.find((tab) => tab.path === 'dirty.ts')?.content).toBe('from shell');
	});

	it('opens binary files without text and governance files read-only', async () => {
		const { workspace } = await workspaceWith({
			'logo.png': new Uint8Array([137, 80, 78, 71, 0, 0]),
			'.orchestration/active_intents.yaml': 'active_intents: []\n'
		});
		await workspace.open('logo.png');
		expect(workspace.activeFile).toMatchObject({ kind: 'binary', content: '' });
		await workspace.open('.orchestration/active_intents.yaml');
		expect(workspace.activeFile?.readOnlyReason).toMatch(/intents editor/);
		workspace.edit('.orchestration/active_intents.yaml', 'x');
		expect(workspace.isDirty('.orchestration/active_intents.yaml')).toBe(false);
	});

	it('creates, renames and deletes files and folders, refusing protected and escaping paths', async () => {
		const { workspace, fs } = await workspaceWith({ 'src/a.ts': 'a' });
		expect(await workspace.createFile('src/b.ts', 'b')).toBe('src/b.ts');
		expect(await workspace.createFile('../evil.ts')).toBeNull();
		expect(workspace.error).toMatch(/not a usable path/);
		expect(await workspace.createFile('.orchestration/x.md')).toBeNull();
		expect(workspace.error).toMatch(/protected/);
		expect(await workspace.createFile('src/a.ts')).toBeNull();
		expect(workspace.error).toMatch(/already exists/);
		await workspace.open('src/b.ts');
		expect(await workspace.renamePath('src', 'lib')).toBe('lib');
		expect([...workspace.files.keys()].sort()).toEqual(['lib/a.ts', 'lib/b.ts']);
		expect(workspace.activePath).toBe('lib/b.ts');
		expect(await fs.readTextFile('lib/a.ts')).toBe('a');
		expect(await workspace.removePath('lib/a.ts')).toBe(true);
		expect(await fs.stat('lib/a.ts')).toBeNull();
		expect(await workspace.removePath('.orchestration')).toBe(false);
	});

	it('keeps edits in the editor when saving fails', async () => {
		const fs = new InMemoryFileSystem({ 'a.ts': 'one' });
		const workspace = new Workspace(fs, {
			saveAsHuman: async () => {
				throw new Error('QuotaExceededError');
			}
		});
		await workspace.refresh();
		await workspace.open('a.ts');
		workspace.edit('a.ts', 'two');
		expect(await workspace.save('a.ts')).toBe(false);
		expect(workspace.error).toMatch(
			/Could not save a\.ts: QuotaExceededError\. Your edits are still in the editor/
		);
		expect(workspace.activeFile?.content).toBe('two');
	});

	it('follows changes announced by the filesystem watch (agent commands)', async () => {
		const { workspace, fs } = await workspaceWith({ 'a.ts': 'a' });
		fs.externalWrite('made-by-shell.txt', 'x');
		await new Promise((resolve) => queueMicrotask(() => resolve(undefined)));
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(workspace.files.has('made-by-shell.txt')).toBe(true);
	});
});

describe('Workspace: every person’s change goes through saveAsHuman', () => {
	it('routes uploads (bytes), renames and deletions through it, so the ledger can record them', async () => {
		const fs = new InMemoryFileSystem({ 'a.ts': 'a' });
		const seen: string[] = [];
		const workspace = new Workspace(fs, {
			saveAsHuman: async (path, content) => {
				seen.push(
					`${path}:${content === null ? 'deleted' : typeof content === 'string' ? 'text' : 'bytes'}`
				);
				if (content === null) await fs.rm(path);
				else await fs.writeFile(path, content);
			}
		});
		await workspace.refresh();
		await workspace.createFile('logo.png', new Uint8Array([137, 80, 78, 71]));
		await workspace.renamePath('a.ts', 'b.ts');
		expect(seen).toEqual(['logo.png:bytes', 'b.ts:bytes', 'a.ts:deleted']);
		expect(await fs.readTextFile('b.ts')).toBe('a');
	});
});
