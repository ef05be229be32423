import { describe, expect, it } from 'vitest';
import {
	isSameOrInsideWorkspacePath,
	joinWorkspacePath,
	normalizeWorkspacePath,
	parentWorkspacePath,
	WorkspacePathError
} from './workspace-path.js';

describe('normalizeWorkspacePath', () => {
	it.each([
		['', ''],
		['.', ''],
		['./', ''],
		['src', 'src'],
		['src/', 'src'],
		['src//app.ts', 'src/app.ts'],
		['./src/./app.ts', 'src/app.ts'],
		['src/lib/../app.ts', 'src/app.ts'],
		['src/..', ''],
		['a b/c.ts', 'a b/c.ts'],
		['...', '...'],
		['.hidden/x', '.hidden/x']
	])('normalizes %j to %j', (input, expected) => {
		expect(normalizeWorkspacePath(input)).toBe(expected);
	});

	it.each(['..', '../x', 'src/../../x', 'a/b/../../..'])('rejects %j as escaping', (input) => {
		expect(() => normalizeWorkspacePath(input)).toThrow(WorkspacePathError);
		expect(() => normalizeWorkspacePath(input)).toThrow(/escapes the workspace root/);
	});

	it('rejects absolute paths, backslashes and NUL bytes with a reason', () => {
		expect(() => normalizeWorkspacePath('/etc/passwd')).toThrow(/absolute/);
		expect(() => normalizeWorkspacePath('src\\app.ts')).toThrow(/forward slashes/);
		expect(() => normalizeWorkspacePath('a\0b')).toThrow(/NUL/);
		expect(() => normalizeWorkspacePath(42 as unknown as string)).toThrow(/string/);
	});

	it('names the offending path in the error', () => {
		try {
			normalizeWorkspacePath('../secret');
			expect.unreachable();
		} catch (error) {
			expect(error).toBeInstanceOf(WorkspacePathError);
			expect((error as WorkspacePathError).path).toBe('../secret');
			expect((error as Error).message).toContain('"../secret"');
		}
	});
});

describe('workspace path helpers', () => {
	it('joins, takes parents and tests containment', () => {
		expect(joinWorkspacePath('', 'a')).toBe('a');
		expect(joinWorkspacePath('a', 'b')).toBe('a/b');
		expect(parentWorkspacePath('a/b/c')).toBe('a/b');
		expect(parentWorkspacePath('a')).toBe('');
		expect(parentWorkspacePath('')).toBe('');
		expect(isSameOrInsideWorkspacePath('', 'anything')).toBe(true);
		expect(isSameOrInsideWorkspacePath('src', 'src')).toBe(true);
		expect(isSameOrInsideWorkspacePath('src', 'src/a')).toBe(true);
		expect(isSameOrInsideWorkspacePath('src', 'srcx/a')).toBe(false);
	});
});
