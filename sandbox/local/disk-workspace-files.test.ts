import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiskWorkspaceFiles } from './disk-workspace-files.js';

describe('DiskWorkspaceFiles', () => {
	let root: string;
	let outside: string;
	let files: DiskWorkspaceFiles;
	const bytes = (text: string) => new TextEncoder().encode(text);

	beforeEach(async () => {
		root = await mkdtemp(join(tmpdir(), 'threadline-disk-root-'));
		outside = await mkdtemp(join(tmpdir(), 'threadline-disk-outside-'));
		await writeFile(join(outside, 'secret.txt'), 'secret');
		files = new DiskWorkspaceFiles(root);
	});

	afterEach(async () => {
		await rm(root, { recursive: true, force: true });
		await rm(outside, { recursive: true, force: true });
	});

	it('reads what is on disk and writes to disk', async () => {
		await writeFile(join(root, 'existing.txt'), 'from disk');
		expect(new TextDecoder().decode(await files.read('existing.txt'))).toBe('from disk');
		await files.makeDirectory('src');
		await files.write('src/new.ts', bytes('export {};'));
		expect(await readFile(join(root, 'src', 'new.ts'), 'utf8')).toBe('export {};');
	});

	it('never follows a symbolic link, even one that stays inside the folder, and hides it', async () => {
		await mkdir(join(root, '.git'));
		await writeFile(join(root, '.git', 'config'), 'core');
		await mkdir(join(root, 'src'));
		await symlink('../.git', join(root, 'src', 'git'));
		await symlink('../.git/config', join(root, 'src', 'config-link'));
		const refused = /EACCES.*links are never followed/;
		await expect(files.read('src/git/config')).rejects.toThrow(refused);
		await expect(files.write('src/git/config', bytes('pwned'))).rejects.toThrow(refused);
		await expect(files.write('src/config-link', bytes('pwned'))).rejects.toThrow(refused);
		await expect(files.makeDirectory('src/git/hooks')).rejects.toThrow(refused);
		await expect(files.stat('src/git')).rejects.toThrow(refused);
		expect(await files.list('src')).toEqual([]);
		expect(new TextDecoder().decode(await files.read('.git/config'))).toBe('core');
	});

	it('refuses every operation through a link that leads outside, and hides it from listings', async () => {
		await symlink(join(outside, 'secret.txt'), join(root, 'leak.txt'));
		await symlink(outside, join(root, 'leakdir'));
		const refused = /EACCES.*outside the workspace/;
		await expect(files.read('leak.txt')).rejects.toThrow(refused);
		await expect(files.stat('leak.txt')).rejects.toThrow(refused);
		await expect(files.write('leak.txt', bytes('pwned'))).rejects.toThrow(refused);
		await expect(files.delete('leak.txt')).rejects.toThrow(refused);
		await expect(files.read('leakdir/secret.txt')).rejects.toThrow(refused);
		await expect(files.write('leakdir/new.txt', bytes('x'))).rejects.toThrow(refused);
		await expect(files.makeDirectory('leakdir/sub')).rejects.toThrow(refused);
		await expect(files.list('leakdir')).rejects.toThrow(refused);
		expect(await files.list('')).toEqual([]);
		expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
		await expect(readFile(join(outside, 'new.txt'))).rejects.toThrow();
	});

	it('refuses a dangling link rather than creating its target', async () => {
		await symlink(join(outside, 'not-yet.txt'), join(root, 'dangling.txt'));
		await expect(files.write('dangling.txt', bytes('x'))).rejects.toThrow(/EACCES/);
		await expect(readFile(join(outside, 'not-yet.txt'))).rejects.toThrow();
	});

	it('reports workspace paths, never host paths, in errors', async () => {
		const error = await files.read('missing/file.txt').catch((caught: unknown) => caught);
		expect(String(error)).toContain("'missing/file.txt'");
		expect(String(error)).not.toContain(root);
	});

	it('says clearly when the folder itself is missing', async () => {
		const missing = new DiskWorkspaceFiles(join(root, 'does-not-exist'));
		await expect(missing.list('')).rejects.toThrow(/Workspace folder not found/);
	});
});
