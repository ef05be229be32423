import { describe, expect, it } from 'vitest';
import { InMemoryFileSystem } from '../../../hooks/workspace/in-memory-file-system.js';
import { searchWorkspace } from './workspace-search.js';

function workspace() {
	return new InMemoryFileSystem({
		'src/a.ts': 'const token = sign();\nexport const Token = 1;\n',
		'src/b.ts': 'nothing here\n',
		'image.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]),
		'big.txt': 'token\n'.repeat(200_000),
		'.git/config': 'token = secret\n',
		'.orchestration/active_intents.yaml': '# token\n'
	});
}

describe('searchWorkspace', () => {
	it('finds plain text case-insensitively with the line and column, skipping binary, huge files and .git/', async () => {
		const fs = workspace();
		const result = await searchWorkspace(fs, fs.paths(), { query: 'TOKEN' });
		expect(result).toEqual({
			ok: true,
			truncated: false,
			skipped: 2,
			matches: [
				{ path: '.orchestration/active_intents.yaml', line: 1, column: 3, text: '# token' },
				{ path: 'src/a.ts', line: 1, column: 7, text: 'const token = sign();' },
				{ path: 'src/a.ts', line: 2, column: 14, text: 'export const Token = 1;' }
			]
		});
	});

	it('is case-sensitive on request and runs RE2 expressions; a bad one is a clear error', async () => {
		const fs = workspace();
		const sensitive = await searchWorkspace(fs, ['src/a.ts'], {
			query: 'Token',
			caseSensitive: true
		});
		expect(sensitive.ok && sensitive.matches.map((match) => match.line)).toEqual([2]);
		const regex = await searchWorkspace(fs, ['src/a.ts'], { query: 's\\w+\\(\\)', regex: true });
		expect(regex.ok && regex.matches).toEqual([
			{ path: 'src/a.ts', line: 1, column: 15, text: 'const token = sign();' }
		]);
		const broken = await searchWorkspace(fs, ['src/a.ts'], { query: '(?=x)', regex: true });
		expect(broken).toMatchObject({ ok: false, reason: expect.stringContaining('RE2') });
		// A pattern that backtracks for hours in JavaScript's engine is linear here.
		const fsLong = new InMemoryFileSystem({ 'x.txt': `${'a'.repeat(5000)}!` });
		const linear = await searchWorkspace(fsLong, ['x.txt'], { query: '^(a+)+$', regex: true });
		expect(linear.ok && linear.matches).toEqual([]);
	});

	it('stops at the cap and says so', async () => {
		const fs = new InMemoryFileSystem({ 'many.txt': 'hit\n'.repeat(50) });
		const result = await searchWorkspace(fs, fs.paths(), { query: 'hit', maxResults: 10 });
		expect(result.ok && [result.matches.length, result.truncated]).toEqual([10, true]);
	});
});
