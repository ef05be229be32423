import { describe, expect, it } from 'vitest';
import { countTreeFiles, toFileSystemTree } from './workspace-file-tree.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('toFileSystemTree', () => {
	it('nests folders and keeps the bytes', () => {
		const content = bytes('x');
		const tree = toFileSystemTree({
			'a/b/c.txt': content,
			'a/d.txt': bytes('d'),
			'top.md': bytes('')
		});
		expect(
			JSON.parse(
				JSON.stringify(tree, (_key, value) => (value instanceof Uint8Array ? 'bytes' : value))
			)
		).toEqual({
			a: {
				directory: {
					b: { directory: { 'c.txt': { file: { contents: 'bytes' } } } },
					'd.txt': { file: { contents: 'bytes' } }
				}
			},
			'top.md': { file: { contents: 'bytes' } }
		});
		const nested = tree.a as {
			directory: { b: { directory: { 'c.txt': { file: { contents: Uint8Array } } } } };
		};
		expect(nested.directory.b.directory['c.txt'].file.contents).toBe(content);
		expect(countTreeFiles(tree)).toBe(3);
	});

	it('keeps names like __proto__ as ordinary entries', () => {
		const tree = toFileSystemTree({ '__proto__/x.txt': bytes('x'), constructor: bytes('c') });
		expect(Object.keys(tree).sort()).toEqual(['__proto__', 'constructor']);
		expect(({} as Record<string, unknown>).x).toBeUndefined();
		expect(countTreeFiles(tree)).toBe(2);
	});

	it('normalizes paths and refuses duplicates after normalization', () => {
		expect(Object.keys(toFileSystemTree({ './src//a.ts': bytes('a') }))).toEqual(['src']);
		expect(() => toFileSystemTree({ 'src/a.ts': bytes('1'), './src/a.ts': bytes('2') })).toThrow(
			/same file as another entry/
		);
	});

	it('refuses a path that is both a file and a folder, in either order', () => {
		expect(() => toFileSystemTree({ a: bytes('f'), 'a/b': bytes('x') })).toThrow(
			/both a file and the folder/
		);
		expect(() => toFileSystemTree({ 'a/b': bytes('x'), a: bytes('f') })).toThrow(
			/both a file and a folder/
		);
	});

	it('refuses bad paths and bad content', () => {
		expect(() => toFileSystemTree({ '': bytes('') })).toThrow(/workspace root/);
		expect(() => toFileSystemTree({ '../up': bytes('') })).toThrow(/escapes/);
		expect(() => toFileSystemTree({ '/abs': bytes('') })).toThrow(/absolute/);
		expect(() => toFileSystemTree({ 'a.txt': 'text' as never })).toThrow(/must be a Uint8Array/);
		expect(() => toFileSystemTree(null as never)).toThrow(TypeError);
	});

	it('gives an empty tree for no files', () => {
		expect(Object.keys(toFileSystemTree({}))).toEqual([]);
	});
});
