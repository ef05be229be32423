import { describe, expect, it } from 'vitest';
import { JournaledWorkspaceFiles } from './journaled-workspace-files.js';
import { MemoryWorkspaceFiles } from './memory-workspace-files.js';
import {
	applyEntryStates,
	captureAllEntryStates,
	captureEntryStates
} from './workspace-entry-states.js';

const text = (data: Uint8Array) => new TextDecoder().decode(data);
const bytes = (value: string) => new TextEncoder().encode(value);

describe('workspace entry states', () => {
	it('captures files, folders and absences in the order asked', async () => {
		const files = new MemoryWorkspaceFiles({ 'src/a.ts': 'a' });
		const states = await captureEntryStates(files, ['src/a.ts', 'src', 'gone.txt', '']);
		expect(states.map(({ path, kind }) => [path, kind])).toEqual([
			['src/a.ts', 'file'],
			['src', 'directory'],
			['gone.txt', 'absent']
		]);
		expect(text((states[0] as { data: Uint8Array }).data)).toBe('a');
	});

	it('copies a whole workspace, empty folders included, parents first', async () => {
		const source = MemoryWorkspaceFiles.fromEntries([
			{ path: 'src/empty', kind: 'directory' },
			{ path: 'src/a.ts', kind: 'file', data: bytes('a') },
			{ path: 'README.md', kind: 'file', data: bytes('r') }
		]);
		const states = await captureAllEntryStates(source);
		expect(states.map((state) => state.path)).toEqual([
			'README.md',
			'src',
			'src/a.ts',
			'src/empty'
		]);
		const copy = new MemoryWorkspaceFiles();
		await applyEntryStates(copy, states);
		expect(copy.allEntries()).toEqual(source.allEntries());
	});

	it('replaces whatever is in the way', async () => {
		const files = new MemoryWorkspaceFiles({ 'a/x.txt': 'x', 'b.txt': 'b', 'c/d/e.txt': 'e' });
		await applyEntryStates(files, [
			// A file where a folder was (its content goes with it)...
			{ path: 'a', kind: 'file', data: bytes('now a file') },
			// ...a folder where a file was, a file below a missing folder, a removed folder.
			{ path: 'b.txt', kind: 'directory' },
			{ path: 'deep/er/f.txt', kind: 'file', data: bytes('f') },
			{ path: 'c', kind: 'absent' },
			{ path: 'never-there.txt', kind: 'absent' }
		]);
		expect(text(await files.read('a'))).toBe('now a file');
		expect(await files.stat('b.txt')).toMatchObject({ kind: 'directory' });
		expect(text(await files.read('deep/er/f.txt'))).toBe('f');
		expect(await files.stat('c')).toBeNull();
	});

	it('converges whatever order the states of a parent and its child come in', async () => {
		const target = new MemoryWorkspaceFiles({ 'dir/old.txt': 'old' });
		// On the other side, dir was removed and a file took its name.
		await applyEntryStates(target, [
			{ path: 'dir/old.txt', kind: 'absent' },
			{ path: 'dir', kind: 'file', data: bytes('file') }
		]);
		expect(text(await target.read('dir'))).toBe('file');

		const other = new MemoryWorkspaceFiles({ dir: 'file' });
		await applyEntryStates(other, [
			{ path: 'dir', kind: 'directory' },
			{ path: 'dir/new.txt', kind: 'file', data: bytes('new') }
		]);
		expect(text(await other.read('dir/new.txt'))).toBe('new');
	});
});

describe('JournaledWorkspaceFiles', () => {
	it('remembers what was written, deleted or created, once each, until taken', async () => {
		const journal = new JournaledWorkspaceFiles(new MemoryWorkspaceFiles({ 'keep.txt': 'k' }));
		await journal.makeDirectory('src');
		await journal.write('src/a.ts', bytes('a'));
		await journal.write('src/a.ts', bytes('b'));
		await journal.delete('keep.txt');
		await journal.read('src/a.ts');
		await journal.list('');
		expect(journal.takeTouchedPaths()).toEqual(['src', 'src/a.ts', 'keep.txt']);
		expect(journal.takeTouchedPaths()).toEqual([]);
	});

	it('does not remember an operation the store refused', async () => {
		const journal = new JournaledWorkspaceFiles(new MemoryWorkspaceFiles());
		await expect(journal.write('missing/a.txt', bytes('x'))).rejects.toThrow(/ENOENT/);
		await expect(journal.delete('nothing.txt')).rejects.toThrow(/ENOENT/);
		expect(journal.takeTouchedPaths()).toEqual([]);
	});
});
