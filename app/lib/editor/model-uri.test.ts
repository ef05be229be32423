import { describe, expect, it } from 'vitest';
import { diffModelPath, diffModelScheme, modelPathForFile } from './model-uri.js';
// @ts-expect-error Monaco ships no types for its internal modules; this is the class `monaco.Uri` is.
import { URI as untypedUri } from 'monaco-editor/base/common/uri.js';

interface UriLike {
	path: string;
	query: string;
	fragment: string;
	toString(): string;
}
const URI = untypedUri as {
	file(path: string): UriLike;
	from(components: { scheme: string; path: string }): UriLike;
};

describe('modelPathForFile', () => {
	it('roots a workspace path so Uri.file gives file:///<path>', () => {
		expect(modelPathForFile('src/auth/jwt.ts')).toBe('/src/auth/jwt.ts');
		expect(URI.file(modelPathForFile('src/auth/jwt.ts')).toString()).toBe(
			'file:///src/auth/jwt.ts'
		);
	});

	it('gives one spelling per file, whatever way the path was written', () => {
		expect(modelPathForFile('./src//a.ts')).toBe('/src/a.ts');
		expect(modelPathForFile('src\\a.ts')).toBe('/src/a.ts');
		expect(modelPathForFile('src/x/../a.ts')).toBe('/src/a.ts');
		// NFD (macOS) and NFC must land on the same model.
		expect(modelPathForFile('cafe\u0301.ts')).toBe(modelPathForFile('caf\u00e9.ts'));
	});

	it('keeps characters that mean something in a URI inside the path', () => {
		const uri = URI.file(modelPathForFile('notes/a b#1?.md'));
		expect(uri.path).toBe('/notes/a b#1?.md');
		expect(uri.fragment).toBe('');
		expect(uri.query).toBe('');
	});

	it('refuses paths outside the workspace with the reason', () => {
		expect(() => modelPathForFile('../secret.ts')).toThrow(/climbs above the workspace root/);
		expect(() => modelPathForFile('/etc/passwd')).toThrow(/absolute path/);
		expect(() => modelPathForFile('')).toThrow(/empty/);
	});
});

describe('diffModelPath', () => {
	it('keeps the file extension last and separates the two sides and each diff', () => {
		expect(diffModelPath(3, 'original', 'src/a.tsx')).toBe('/3/original/src/a.tsx');
		expect(diffModelPath(3, 'modified', 'src/a.tsx')).toBe('/3/modified/src/a.tsx');
		expect(
			URI.from({ scheme: diffModelScheme, path: diffModelPath(4, 'original', 'a.ts') }).toString()
		).toBe('threadline-diff:/4/original/a.ts');
	});

	it('rejects a bad diff id', () => {
		expect(() => diffModelPath(-1, 'original', 'a.ts')).toThrow(RangeError);
		expect(() => diffModelPath(1.5, 'original', 'a.ts')).toThrow(RangeError);
	});
});
