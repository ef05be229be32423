import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	canonicalEntryPath,
	EntryPathSet,
	isWithinFolder,
	normalizeWorkspacePath
} from './normalize-path.js';

function normalized(input: string, allowRoot = false): string {
	const result = normalizeWorkspacePath(input, { allowRoot });
	if (!result.ok)
		throw new Error(`expected ${JSON.stringify(input)} to normalise: ${result.reason}`);
	return result.path;
}

function rejection(input: string, allowRoot = false): string {
	const result = normalizeWorkspacePath(input, { allowRoot });
	if (result.ok)
		throw new Error(`expected ${JSON.stringify(input)} to be rejected, got ${result.path}`);
	return result.reason;
}

describe('normalizeWorkspacePath', () => {
	it.each([
		['src/index.ts', 'src/index.ts'],
		['./src/index.ts', 'src/index.ts'],
		['././src/./index.ts', 'src/index.ts'],
		['src//auth///jwt.ts', 'src/auth/jwt.ts'],
		['src\\auth\\jwt.ts', 'src/auth/jwt.ts'],
		['src/auth/', 'src/auth'],
		['src/auth//', 'src/auth'],
		['a/../b', 'b'],
		['a/b/../../c', 'c'],
		['a/./b/../c/', 'a/c'],
		['.orchestration/active_intents.yaml', '.orchestration/active_intents.yaml'],
		['...', '...'],
		['..foo/bar..', '..foo/bar..'],
		['~user/notes.md', '~user/notes.md'],
		['src/a b.ts', 'src/a b.ts'],
		['src/ab:c.ts', 'src/ab:c.ts']
	])('normalises %j to %j', (input, expected) => {
		expect(normalized(input)).toBe(expected);
	});

	it('composes Unicode to NFC so macOS and Linux spellings agree', () => {
		const decomposed = 'docs/cafe\u0301.md';
		const composed = 'docs/caf\u00e9.md';
		expect(normalized(decomposed)).toBe(composed);
		expect(normalized(composed)).toBe(composed);
	});

	it('rejects the empty path unless the root is allowed', () => {
		expect(rejection('')).toMatch(/empty/);
		expect(normalized('', true)).toBe('');
	});

	it.each(['.', './', 'a/..', './a/../'])('treats %j as the root', (input) => {
		expect(rejection(input)).toMatch(/workspace root/);
		expect(normalized(input, true)).toBe('');
	});

	it.each([
		'/etc/passwd',
		'/',
		'\\\\server\\share',
		'//server/share',
		'C:\\x',
		'c:/x',
		'c:x',
		'C:'
	])('rejects the absolute path %j', (input) => {
		expect(rejection(input)).toMatch(/absolute path.*relative to the workspace root/);
	});

	it.each(['~/x', '~', '~\\x', './~/x', 'a/../~/x'])('rejects the home-folder path %j', (input) => {
		expect(rejection(input)).toMatch(/home folder/);
	});

	it.each(['./C:/x', 'a/../c:x', './C:'])('rejects %j which reads as a Windows drive', (input) => {
		expect(rejection(input)).toMatch(/Windows drive/);
	});

	it.each(['file:///etc/passwd', 'https://example.com/x', 'file:\\\\\\etc'])(
		'rejects the URL %j',
		(input) => {
			expect(rejection(input)).toMatch(/URL/);
		}
	);

	it.each(['..', '../x', 'a/../../x', './..', 'a/b/../../../c', 'src\\..\\..\\x'])(
		'rejects %j which climbs above the root',
		(input) => {
			expect(rejection(input, true)).toMatch(/climbs above the workspace root/);
		}
	);

	it.each(['a\u0000b', 'src/x.ts\n', 'a\tb', 'a\u007fb', 'a\u0085b', '\u001b[31m'])(
		'rejects the control character in %j',
		(input) => {
			expect(rejection(input)).toMatch(/control character \(U\+[0-9A-F]{4}\)/);
		}
	);

	it('names the control character so the model can find it', () => {
		expect(rejection('a\u0000b')).toContain('U+0000');
	});

	it.each([' ', 'src/ /x', 'a/\u00a0/b'])('rejects the whitespace-only name in %j', (input) => {
		expect(rejection(input)).toMatch(/only whitespace/);
	});

	it('rejects a value that is not a string instead of throwing', () => {
		expect(normalizeWorkspacePath(42 as unknown as string)).toEqual({
			ok: false,
			reason: 'The path must be a string.'
		});
	});

	it('keeps the output stable under a second pass (property)', () => {
		const segment = fc.oneof(
			fc.constantFrom('.', '..', '', 'src', 'a', '~', 'C:', 'e\u0301', '\u00e9', ' x', 'file:'),
			fc.string({ maxLength: 6 })
		);
		const separator = fc.constantFrom('/', '\\', '//', '/./');
		const pathLike = fc
			.array(fc.tuple(segment, separator), { maxLength: 8 })
			.map((parts) => parts.map(([name, slash]) => name + slash).join(''));
		const anyInput = fc.oneof(pathLike, fc.string(), fc.string({ unit: 'grapheme' }));
		fc.assert(
			fc.property(anyInput, fc.boolean(), (input, allowRoot) => {
				const first = normalizeWorkspacePath(input, { allowRoot });
				if (!first.ok) {
					expect(first.reason.length).toBeGreaterThan(0);
					return;
				}
				const output = first.path;
				expect(output.startsWith('/')).toBe(false);
				expect(output.split('/')).not.toContain('..');
				expect(output).not.toContain('//');
				expect(output).not.toContain('\\');
				expect(output.endsWith('/')).toBe(false);
				expect(output.startsWith('./')).toBe(false);
				expect(output).toBe(output.normalize('NFC'));
				if (!allowRoot) expect(output).not.toBe('');
				expect(normalizeWorkspacePath(output, { allowRoot })).toEqual({ ok: true, path: output });
			}),
			{ numRuns: 2000 }
		);
	});
});

describe('isWithinFolder', () => {
	it.each([
		['src/auth/jwt.ts', 'src/auth', true],
		['src/auth', 'src/auth', true],
		['src/auth/deep/x.ts', 'src', true],
		['src/authx/jwt.ts', 'src/auth', false],
		['src/aut', 'src/auth', false],
		['src', 'src/auth', false],
		['anything/at/all', '', true],
		['src/auth/jwt.ts', 'src/auth/', true]
	])('isWithinFolder(%j, %j) is %s', (path, folder, expected) => {
		expect(isWithinFolder(path, folder)).toBe(expected);
	});
});

describe('canonicalEntryPath (strict, for export and zip readers)', () => {
	it.each(['src/index.ts', '.orchestration/audit.jsonl', '...', 'a b/c.ts', '.git/config'])(
		'accepts the canonical %j as is',
		(name) => {
			expect(canonicalEntryPath(name)).toEqual({ ok: true, path: name });
		}
	);

	it('composes NFD to NFC', () => {
		expect(canonicalEntryPath('docs/cafe\u0301.md')).toEqual({
			ok: true,
			path: 'docs/caf\u00e9.md'
		});
	});

	it.each([
		['src\\db\\users.ts', /backslash/],
		['./src/a.ts', /"\." segment/],
		['src/./a.ts', /"\." segment/],
		['src//a.ts', /empty segment/],
		['src/a.ts/', /empty segment/],
		['../a.ts', /"\.\." segment/],
		['src/../a.ts', /"\.\." segment/],
		['/etc/passwd', /absolute/],
		['C:/x', /absolute/],
		['c:x', /absolute/],
		['file:///etc/passwd', /absolute/],
		['~/x', /home folder/],
		['a\u0000b', /control character/],
		['a\rb', /control character/],
		[' /x', /whitespace/],
		['', /empty/]
	])('refuses %j rather than repairing it', (name, reason) => {
		const result = canonicalEntryPath(name);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.reason).toMatch(reason);
	});

	it('agrees with normalizeWorkspacePath on every name it accepts (property)', () => {
		fc.assert(
			fc.property(
				fc.array(fc.constantFrom('a', 'B', '.', '..', '', ' ', '\\', 'é', 'e\u0301', '~', 'C:'), {
					maxLength: 6
				}),
				(segments) => {
					const name = segments.join('/');
					const strict = canonicalEntryPath(name);
					if (!strict.ok) return;
					const lenient = normalizeWorkspacePath(name);
					expect(lenient).toEqual(strict);
					expect(strict.path).toBe(name.normalize('NFC'));
				}
			)
		);
	});
});

describe('EntryPathSet', () => {
	it('refuses a second entry for the same file, naming both', () => {
		const names = new EntryPathSet();
		expect(names.add('docs/caf\u00e9.md')).toEqual({ ok: true, path: 'docs/caf\u00e9.md' });
		expect(names.add('docs/cafe\u0301.md')).toEqual({
			ok: false,
			reason: 'entries "docs/café.md" and "docs/cafe\u0301.md" name the same file'
		});
		expect(names.add('docs/caf\u00e9.md')).toEqual({
			ok: false,
			reason: 'entry "docs/café.md" appears twice'
		});
	});

	it('keeps case variants apart: each is checked against the ledger under its own name', () => {
		const names = new EntryPathSet();
		expect(names.add('src/a.ts').ok).toBe(true);
		expect(names.add('src/A.ts').ok).toBe(true);
	});
});
