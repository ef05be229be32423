import { describe, expect, it } from 'vitest';
import { ChangeRecorder } from './change-recorder.js';
import { MemoryWorkspaceFiles } from './memory-workspace-files.js';
import {
	createShellFileMetadata,
	resolveAbsolutePath,
	ShellWorkspaceAdapter
} from './shell-workspace-adapter.js';

function createAdapter(initial: Record<string, string> = {}) {
	const files = new MemoryWorkspaceFiles(initial);
	const recorder = new ChangeRecorder(files);
	const adapter = new ShellWorkspaceAdapter(
		files,
		recorder,
		createShellFileMetadata(),
		'/workspace'
	);
	return { files, recorder, adapter };
}

describe('ShellWorkspaceAdapter', () => {
	it('translates mount paths to workspace paths', async () => {
		const { adapter } = createAdapter({ 'src/a.ts': 'a' });
		expect(await adapter.readFile('/src/a.ts')).toBe('a');
		expect(await adapter.readdir('/')).toEqual(['src']);
		expect(await adapter.exists('/src/../src/a.ts')).toBe(true);
		expect(await adapter.exists('/../../src/a.ts')).toBe(true);
		expect(await adapter.realpath('/src/./a.ts')).toBe('/src/a.ts');
	});

	it('throws errors in the shape just-bash commands parse, with shell paths', async () => {
		const { adapter } = createAdapter();
		await expect(adapter.readFile('/missing.txt')).rejects.toThrow(
			"ENOENT: no such file or directory, open '/workspace/missing.txt'"
		);
		await expect(adapter.stat('/missing.txt')).rejects.toMatchObject({ code: 'ENOENT' });
	});

	it('records content before the first write only', async () => {
		const { adapter, recorder } = createAdapter({ 'a.txt': 'one' });
		await adapter.writeFile('/a.txt', 'two');
		await adapter.appendFile('/a.txt', ' three');
		const changes = await recorder.collectChanges();
		expect(changes).toHaveLength(1);
		expect(new TextDecoder().decode(changes[0]?.before ?? undefined)).toBe('one');
		expect(new TextDecoder().decode(changes[0]?.after ?? undefined)).toBe('two three');
	});

	it('honours the encoding of string content', async () => {
		const { adapter, files } = createAdapter();
		await adapter.writeFile('/latin.bin', '\u00ff\u0000', 'binary');
		expect(Array.from(await files.read('latin.bin'))).toEqual([255, 0]);
		await adapter.writeFile('/text.txt', '\u00ff');
		expect(Array.from(await files.read('text.txt'))).toEqual([0xc3, 0xbf]);
		expect(await adapter.readFile('/latin.bin', { encoding: 'binary' })).toBe('\u00ff\u0000');
	});

	it('refuses every operation once revoked', async () => {
		const { adapter, files } = createAdapter({ 'a.txt': 'a' });
		adapter.revoke('the command was stopped (timeout)');
		await expect(adapter.writeFile('/b.txt', 'b')).rejects.toThrow(/EACCES.*timeout/);
		await expect(adapter.rm('/a.txt')).rejects.toThrow(/EACCES/);
		await expect(adapter.mkdir('/dir')).rejects.toThrow(/EACCES/);
		await expect(adapter.readFile('/a.txt')).rejects.toThrow(/EACCES/);
		expect(await files.list('')).toEqual([{ name: 'a.txt', kind: 'file' }]);
	});

	it('refuses links', async () => {
		const { adapter } = createAdapter({ 'a.txt': 'a' });
		await expect(adapter.symlink('a.txt', '/b.txt')).rejects.toThrow(/ENOTSUP/);
		await expect(adapter.link('/a.txt', '/b.txt')).rejects.toThrow(/ENOTSUP/);
		await expect(adapter.readlink('/a.txt')).rejects.toThrow(/EINVAL/);
	});
});

describe('resolveAbsolutePath', () => {
	it.each([
		['/workspace', 'a.txt', '/workspace/a.txt'],
		['/workspace/src', '../a.txt', '/workspace/a.txt'],
		['/workspace', '/tmp/x', '/tmp/x'],
		['/', '../../x', '/x'],
		['/a', '.', '/a'],
		['/a/', 'b//c/', '/a/b/c']
	])('resolves %j + %j to %j', (base, path, expected) => {
		expect(resolveAbsolutePath(base, path)).toBe(expected);
	});
});
