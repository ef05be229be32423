import { beforeEach, describe, expect, it } from 'vitest';
import { isSandboxFileSystemError } from '../sandbox-file-system-error.js';
import type { WorkspaceFiles } from './workspace-files.js';

/**
 * What every WorkspaceFiles store (memory, disk, IndexedDB…) must do. `createFiles` returns a
 * fresh, EMPTY store each time.
 */
export function describeWorkspaceFilesContract(
	name: string,
	createFiles: () => Promise<WorkspaceFiles>
): void {
	describe(`WorkspaceFiles contract: ${name}`, () => {
		let files: WorkspaceFiles;
		const bytes = (text: string) => new TextEncoder().encode(text);
		const expectCode = async (promise: Promise<unknown>, code: string) => {
			const error = await promise.then(
				() => undefined,
				(caught: unknown) => caught
			);
			expect(
				isSandboxFileSystemError(error),
				`expected a ${code} error, got ${String(error)}`
			).toBe(true);
			expect((error as { code: string }).code).toBe(code);
		};

		beforeEach(async () => {
			files = await createFiles();
		});

		it('has an empty root folder', async () => {
			expect(await files.stat('')).toMatchObject({ kind: 'directory', size: 0 });
			expect(await files.list('')).toEqual([]);
		});

		it('writes, reads and stats a file', async () => {
			await files.write('a.txt', bytes('hello'));
			expect(await files.stat('a.txt')).toMatchObject({ kind: 'file', size: 5 });
			expect(new TextDecoder().decode(await files.read('a.txt'))).toBe('hello');
		});

		it('does not share buffers with callers', async () => {
			const data = bytes('abc');
			await files.write('a.txt', data);
			data[0] = 0x7a;
			const read = await files.read('a.txt');
			read[1] = 0x7a;
			expect(new TextDecoder().decode(await files.read('a.txt'))).toBe('abc');
		});

		it('returns null for missing paths, including below a file', async () => {
			await files.write('a.txt', bytes('x'));
			expect(await files.stat('missing')).toBeNull();
			expect(await files.stat('a.txt/below')).toBeNull();
		});

		it('needs an existing parent folder to write or make a folder', async () => {
			await expectCode(files.write('missing/a.txt', bytes('x')), 'ENOENT');
			await expectCode(files.makeDirectory('missing/sub'), 'ENOENT');
			await files.write('file.txt', bytes('x'));
			await expectCode(files.write('file.txt/a.txt', bytes('x')), 'ENOTDIR');
		});

		it('makes folders and lists entries sorted with kinds', async () => {
			await files.makeDirectory('src');
			await files.write('src/b.ts', bytes('b'));
			await files.write('src/a.ts', bytes('a'));
			await files.makeDirectory('src/lib');
			expect(await files.list('src')).toEqual([
				{ name: 'a.ts', kind: 'file' },
				{ name: 'b.ts', kind: 'file' },
				{ name: 'lib', kind: 'directory' }
			]);
			await expectCode(files.makeDirectory('src'), 'EEXIST');
			await expectCode(files.makeDirectory('src/a.ts'), 'EEXIST');
		});

		it('refuses to list what is not a folder', async () => {
			await files.write('a.txt', bytes('x'));
			await expectCode(files.list('missing'), 'ENOENT');
			await expectCode(files.list('a.txt'), 'ENOTDIR');
		});

		it('refuses to read a folder or a missing file', async () => {
			await files.makeDirectory('dir');
			await expectCode(files.read('dir'), 'EISDIR');
			await expectCode(files.read('missing'), 'ENOENT');
			await expectCode(files.write('dir', bytes('x')), 'EISDIR');
		});

		it('deletes files and empty folders only', async () => {
			await files.makeDirectory('dir');
			await files.write('dir/a.txt', bytes('x'));
			await expectCode(files.delete('dir'), 'ENOTEMPTY');
			await files.delete('dir/a.txt');
			expect(await files.stat('dir/a.txt')).toBeNull();
			await files.delete('dir');
			expect(await files.list('')).toEqual([]);
			await expectCode(files.delete('dir'), 'ENOENT');
		});

		it('replaces a file on write', async () => {
			await files.write('a.txt', bytes('a much longer first version'));
			await files.write('a.txt', bytes('short'));
			expect(new TextDecoder().decode(await files.read('a.txt'))).toBe('short');
			expect((await files.list('')).map((entry) => entry.name)).toEqual(['a.txt']);
		});
	});
}
