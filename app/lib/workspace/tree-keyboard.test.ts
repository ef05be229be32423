import { describe, expect, it } from 'vitest';
import { buildTreeRows } from './file-tree-model.js';
import { treeKeyAction } from './tree-keyboard.js';

const rows = buildTreeRows(['src/a.ts', 'src/b.ts', 'README.md'], ['docs'], new Set(['src']));
const row = (path: string) => rows.find((candidate) => candidate.path === path)!;

describe('treeKeyAction', () => {
	it('moves focus with the arrows, Home and End, clamped at the ends', () => {
		expect(treeKeyAction(rows, row('src'), 'ArrowDown')).toEqual({
			kind: 'focus',
			path: 'src/a.ts'
		});
		expect(treeKeyAction(rows, row('docs'), 'ArrowUp')).toEqual({ kind: 'focus', path: 'docs' });
		expect(treeKeyAction(rows, row('src/b.ts'), 'Home')).toEqual({ kind: 'focus', path: 'docs' });
		expect(treeKeyAction(rows, row('docs'), 'End')).toEqual({ kind: 'focus', path: 'README.md' });
		expect(treeKeyAction(rows, row('README.md'), 'ArrowDown')).toEqual({
			kind: 'focus',
			path: 'README.md'
		});
	});

	it('opens and closes folders with Right and Left, and Left on a file goes to its folder', () => {
		expect(treeKeyAction(rows, row('docs'), 'ArrowRight')).toEqual({
			kind: 'expand',
			path: 'docs',
			open: true
		});
		expect(treeKeyAction(rows, row('src'), 'ArrowRight')).toEqual({
			kind: 'focus',
			path: 'src/a.ts'
		});
		expect(treeKeyAction(rows, row('src'), 'ArrowLeft')).toEqual({
			kind: 'expand',
			path: 'src',
			open: false
		});
		expect(treeKeyAction(rows, row('src/b.ts'), 'ArrowLeft')).toEqual({
			kind: 'focus',
			path: 'src'
		});
		expect(treeKeyAction(rows, row('README.md'), 'ArrowRight')).toBeNull();
	});

	it('maps Enter/Space, F2 and Delete, and ignores other keys', () => {
		expect(treeKeyAction(rows, row('README.md'), 'Enter')).toEqual({ kind: 'activate' });
		expect(treeKeyAction(rows, row('README.md'), ' ')).toEqual({ kind: 'activate' });
		expect(treeKeyAction(rows, row('README.md'), 'F2')).toEqual({ kind: 'rename' });
		expect(treeKeyAction(rows, row('README.md'), 'Delete')).toEqual({ kind: 'delete' });
		expect(treeKeyAction(rows, row('README.md'), 'x')).toBeNull();
	});
});
