import { describe, expect, it } from 'vitest';
import { ancestorsOf, buildTreeRows } from './file-tree-model.js';

describe('buildTreeRows', () => {
	const files = [
		'src/auth/jwt.ts',
		'src/index.ts',
		'README.md',
		'.orchestration/active_intents.yaml',
		'a.txt'
	];

	it('lists folders first, then files, case-insensitively, showing only expanded folders', () => {
		const rows = buildTreeRows(files, [], new Set(['src']));
		expect(
			rows.map(
				(row) => `${'  '.repeat(row.level - 1)}${row.name}${row.kind === 'directory' ? '/' : ''}`
			)
		).toEqual(['.orchestration/', 'src/', '  auth/', '  index.ts', 'a.txt', 'README.md']);
	});

	it('marks .orchestration/ and .git/ as locked and keeps empty folders', () => {
		const rows = buildTreeRows(files, ['docs'], new Set(['.orchestration']));
		expect(rows.find((row) => row.path === '.orchestration/active_intents.yaml')?.locked).toBe(
			true
		);
		expect(rows.find((row) => row.path === '.orchestration')?.locked).toBe(true);
		// One rule for governance paths: .intentignore and folded spellings are locked too.
		const governed = buildTreeRows(
			['.intentignore', '.g\u0131t/HEAD', '.intentignore.md'],
			[],
			new Set()
		);
		expect(governed.filter((row) => row.locked).map((row) => row.path)).toEqual([
			'.g\u0131t',
			'.intentignore'
		]);
		expect(rows.find((row) => row.path === 'docs')).toMatchObject({
			kind: 'directory',
			locked: false,
			level: 1
		});
	});
});

describe('ancestorsOf', () => {
	it('gives the folders above a path, outermost first', () => {
		expect(ancestorsOf('a/b/c.ts')).toEqual(['a', 'a/b']);
		expect(ancestorsOf('c.ts')).toEqual([]);
	});
});

describe('buildTreeRows with deleted files', () => {
	it('shows a deleted file where it was, unless it exists again', () => {
		const rows = buildTreeRows(['src/a.ts', 'src/b.ts'], [], new Set(['src', 'gone']), [
			'src/old.ts',
			'src/b.ts',
			'gone/x.ts'
		]);
		expect(rows.map((row) => [row.path, row.deleted ?? false])).toEqual([
			['gone', false],
			['gone/x.ts', true],
			['src', false],
			['src/a.ts', false],
			['src/b.ts', false],
			['src/old.ts', true]
		]);
	});
});
