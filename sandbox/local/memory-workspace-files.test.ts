import { describe, expect, it } from 'vitest';
import { MemoryWorkspaceFiles } from './memory-workspace-files.js';

describe('MemoryWorkspaceFiles', () => {
	it('seeds initial files with their parent folders', async () => {
		const files = new MemoryWorkspaceFiles({
			'src/app.ts': 'export {};\n',
			'./assets//logo.bin': Uint8Array.from([1, 2, 3])
		});
		expect(await files.list('')).toEqual([
			{ name: 'assets', kind: 'directory' },
			{ name: 'src', kind: 'directory' }
		]);
		expect(new TextDecoder().decode(await files.read('src/app.ts'))).toBe('export {};\n');
		expect(Array.from(await files.read('assets/logo.bin'))).toEqual([1, 2, 3]);
	});

	it('rejects initial paths that escape, are absolute or collide with a file', () => {
		expect(() => new MemoryWorkspaceFiles({ '../x.txt': 'x' })).toThrow(/escapes/);
		expect(() => new MemoryWorkspaceFiles({ '/etc/x': 'x' })).toThrow(/absolute/);
		expect(() => new MemoryWorkspaceFiles({ '.': 'x' })).toThrow(/root/);
		expect(() => new MemoryWorkspaceFiles({ 'a.txt': 'x', 'a.txt/b.txt': 'y' })).toThrow(/ENOTDIR/);
	});

	it('stamps modification times from the injected clock', async () => {
		let now = 1_000;
		const files = new MemoryWorkspaceFiles({}, { now: () => now });
		now = 2_000;
		await files.write('a.txt', new Uint8Array());
		expect(await files.stat('a.txt')).toEqual({ kind: 'file', size: 0, modifiedAt: 2_000 });
	});

	it('refuses non-byte content', async () => {
		const files = new MemoryWorkspaceFiles();
		await expect(files.write('a.txt', 'text' as unknown as Uint8Array)).rejects.toThrow(
			/Uint8Array/
		);
	});

	it('refuses to delete the root', async () => {
		const files = new MemoryWorkspaceFiles();
		await expect(files.delete('')).rejects.toThrow(/EPERM/);
	});
});
