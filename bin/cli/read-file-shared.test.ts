import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileShared } from './read-file-shared.js';

let folder: string;

beforeAll(async () => {
	folder = await mkdtemp(join(tmpdir(), 'threadline-shared-'));
});

afterAll(async () => {
	await rm(folder, { recursive: true, force: true });
});

describe('readFileShared', () => {
	it('reads every byte of a file into shared memory, empty files and multi-megabyte ones alike', async () => {
		for (const size of [0, 1, 65_537, 3 * 1024 * 1024 + 5]) {
			const bytes = Uint8Array.from({ length: size }, (_, index) => (index * 7 + 3) & 0xff);
			const path = join(folder, `file-${size}`);
			await writeFile(path, bytes);
			const read = await readFileShared(path);
			expect(read.buffer).toBeInstanceOf(SharedArrayBuffer);
			expect(Buffer.compare(Buffer.from(read), Buffer.from(bytes))).toBe(0);
		}
	});

	it('fails as reading any missing file fails', async () => {
		await expect(readFileShared(join(folder, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
	});
});
