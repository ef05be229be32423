import { describe, expect, it } from 'vitest';
import { InMemoryFileSystem } from './in-memory-file-system.js';

describe('InMemoryFileSystem', () => {
	it('refuses to create anything below a file (ENOTDIR), as a real filesystem does', async () => {
		const fs = new InMemoryFileSystem({ 'src/a.ts': 'a', 'src/b.ts': 'b' });
		await expect(fs.writeFile('src/a.ts/x', 'x')).rejects.toMatchObject({ code: 'ENOTDIR' });
		await expect(fs.mkdir('src/a.ts/folder')).rejects.toMatchObject({ code: 'ENOTDIR' });
		await expect(fs.rename('src/b.ts', 'src/a.ts/b.ts')).rejects.toMatchObject({
			code: 'ENOTDIR'
		});
		expect(() => fs.externalWrite('src/a.ts/deeper/y', 'y')).toThrow(/ENOTDIR/);
		// Nothing was written, and the file is still a file.
		expect(fs.paths()).toEqual(['src/a.ts', 'src/b.ts']);
		expect(await fs.stat('src/a.ts')).toEqual({ kind: 'file', size: 1 });
	});

	it('refuses to write a file over a folder (EISDIR)', async () => {
		const fs = new InMemoryFileSystem({ 'src/a.ts': 'a' });
		await expect(fs.writeFile('src', 'x')).rejects.toMatchObject({ code: 'EISDIR' });
	});
});
