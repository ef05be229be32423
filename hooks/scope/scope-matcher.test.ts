import { minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';
import type { Intent, IntentsDocument } from '../intents/intent.js';
import { parseIntents } from '../intents/parse-intents.js';
import { compileScope } from './scope-matcher.js';

function intent(id: string, owned_scope: string[]): Intent {
	return {
		id,
		name: id,
		status: 'IN_PROGRESS',
		owned_scope,
		constraints: [],
		acceptance_criteria: [],
		parallel: false,
		extra: {}
	};
}

function documentOf(...intents: Intent[]): IntentsDocument {
	return { intents, extra: {} };
}

function inScope(patterns: string[], path: string): boolean {
	return compileScope(documentOf(intent('I', patterns))).isInScope('I', path);
}

describe('compileScope: matching', () => {
	it('matches the DESIGN.md example', () => {
		const parsed = parseIntents(`active_intents:
  - id: INT-001
    name: JWT Authentication Migration
    status: IN_PROGRESS
    owned_scope: ["src/auth/**", "src/middleware/jwt.ts"]
`);
		if (!parsed.ok) throw new Error('sample did not parse');
		const scope = compileScope(parsed.document);
		expect(scope.isInScope('INT-001', 'src/auth/jwt.ts')).toBe(true);
		expect(scope.isInScope('INT-001', 'src/auth/deep/nested/x.ts')).toBe(true);
		expect(scope.isInScope('INT-001', 'src/middleware/jwt.ts')).toBe(true);
		expect(scope.isInScope('INT-001', 'src/middleware/cors.ts')).toBe(false);
		expect(scope.isInScope('INT-001', 'src/db/x.ts')).toBe(false);
		expect(scope.isInScope('INT-001', 'src/authx/y.ts')).toBe(false);
	});

	it.each([
		[['src/**'], 'src/.env', true],
		[['**/*.ts'], 'a.ts', true],
		[['**/*.ts'], 'deep/.hidden/a.ts', true],
		[['**/*.ts'], 'a.tsx', false],
		[['src/*.ts'], 'src/a.ts', true],
		[['src/*.ts'], 'src/sub/a.ts', false],
		[['src/{auth,session}/**'], 'src/session/x.ts', true],
		[['src/{auth,session}/**'], 'src/db/x.ts', false],
		[['src/auth/'], 'src/auth/jwt.ts', true],
		[['src/auth/'], 'src/auth', true],
		[['src/auth/'], 'src/authx', false],
		[['src/auth/**'], 'src/auth', true],
		[['src/*/**'], 'src/anything', true],
		[['src/*/**'], 'src/anything/x.ts', true],
		[['src/*/**'], 'src', false],
		[['./src/a.ts'], 'src/a.ts', true],
		[['./src/**'], 'src/x/y.ts', true],
		[['/src/**'], 'src/x.ts', true],
		[['src//a.ts'], 'src/a.ts', true],
		[['src/auth'], 'src/auth', true],
		[['src/auth'], 'src/auth/jwt.ts', false],
		[['SRC/**'], 'src/a.ts', false],
		[['**'], 'anything/at/all.txt', true],
		[['#notes.md'], '#notes.md', true],
		[['docs/cafe\u0301.md'], 'docs/caf\u00e9.md', true],
		[['src/**', '!src/secrets/**'], 'src/app.ts', true],
		[['src/**', '!src/secrets/**'], 'src/secrets/key.pem', false],
		[['src/**', '!src/secrets/**'], 'src/secrets', false],
		[['src/**', '!**/*.test.ts'], 'src/a.test.ts', false],
		[['!src/secrets/**'], 'README.md', false],
		[['src/**', '!!src/x/**'], 'src/x/y', true],
		[['../outside/**'], 'outside/x', false],
		[['./'], 'a.ts', false],
		[[''], '', false],
		[['**'], '', false],
		[[], 'a.ts', false]
	])('%j covers %j: %s', (patterns, path, expected) => {
		expect(inScope(patterns, path)).toBe(expected);
	});

	it('agrees with minimatch on ordinary globs', () => {
		const patterns = ['src/**/*.ts', 'lib/?.js', 'docs/[ab]*.md', 'a/{b,c}/d.txt', '**/.env'];
		const paths = [
			'src/x.ts',
			'src/a/b/c.ts',
			'lib/a.js',
			'lib/ab.js',
			'docs/alpha.md',
			'docs/c.md',
			'a/c/d.txt',
			'x/.env',
			'.env',
			'src/x.js'
		];
		for (const pattern of patterns) {
			for (const path of paths) {
				expect(inScope([pattern], path), `${pattern} vs ${path}`).toBe(
					minimatch(path, pattern, { dot: true })
				);
			}
		}
	});

	it('answers false for an unknown intent and returns no patterns for it', () => {
		const scope = compileScope(documentOf(intent('A', ['**'])));
		expect(scope.isInScope('B', 'x.ts')).toBe(false);
		expect(scope.patternsOf('B')).toEqual([]);
		expect(scope.firstPathOutOfScope('B', ['x.ts'])).toBe('x.ts');
	});

	it('keeps intents apart', () => {
		const scope = compileScope(documentOf(intent('A', ['a/**']), intent('B', ['b/**'])));
		expect(scope.isInScope('A', 'a/x')).toBe(true);
		expect(scope.isInScope('A', 'b/x')).toBe(false);
		expect(scope.isInScope('B', 'b/x')).toBe(true);
	});

	it('uses the first of two intents with the same id', () => {
		const scope = compileScope(documentOf(intent('A', ['a/**']), intent('A', ['**'])));
		expect(scope.isInScope('A', 'b/x')).toBe(false);
	});
});

describe('compileScope: helpers and caching', () => {
	it('returns the patterns as written, as a copy', () => {
		const document = documentOf(intent('A', ['./src/auth/', 'src/x.ts']));
		const patterns = compileScope(document).patternsOf('A');
		expect(patterns).toEqual(['./src/auth/', 'src/x.ts']);
		patterns.push('**');
		expect(compileScope(document).patternsOf('A')).toEqual(['./src/auth/', 'src/x.ts']);
	});

	it('finds the first path out of scope', () => {
		const scope = compileScope(documentOf(intent('A', ['src/**'])));
		expect(scope.firstPathOutOfScope('A', ['src/a.ts', 'src/b.ts'])).toBeNull();
		expect(scope.firstPathOutOfScope('A', ['src/a.ts', 'db/x.ts', 'db/y.ts'])).toBe('db/x.ts');
		expect(scope.firstPathOutOfScope('A', [])).toBeNull();
	});

	it('compiles once per document object', () => {
		const document = documentOf(intent('A', ['src/**']));
		expect(compileScope(document)).toBe(compileScope(document));
		expect(compileScope(documentOf(intent('A', ['src/**'])))).not.toBe(compileScope(document));
	});

	it('stays cheap with 200 intents of 10 globs each', () => {
		const intents: Intent[] = [];
		for (let number = 0; number < 200; number++) {
			intents.push(
				intent(`INT-${number}`, [
					`packages/p${number}/src/**`,
					`packages/p${number}/test/**/*.test.ts`,
					`packages/p${number}/README.md`,
					`packages/p${number}/{a,b}/*.json`,
					`docs/p${number}/`,
					`packages/p${number}/**/*.{ts,js}`,
					`!packages/p${number}/src/generated/**`,
					`scripts/p${number}-*.sh`,
					`config/p${number}.json`,
					`packages/p${number}/lib/?.js`
				])
			);
		}
		const document = documentOf(...intents);
		const paths: string[] = [];
		for (let number = 0; number < 1000; number++) {
			paths.push(`packages/p${number % 250}/src/module${number}/file${number}.ts`);
		}
		let inScopeCount = 0;
		const scope = compileScope(document);
		for (let round = 0; round < 20; round++) {
			for (let number = 0; number < 200; number++) {
				for (const path of paths.slice(0, 25)) {
					if (compileScope(document).isInScope(`INT-${number}`, path)) inScopeCount++;
				}
			}
		}
		// Speed is measured by `npm run bench`, never asserted in tests.
		expect(inScopeCount).toBe(20 * 25);
		expect(scope.isInScope('INT-7', 'packages/p7/src/generated/x.ts')).toBe(false);
		expect(scope.isInScope('INT-7', 'docs/p7/guide.md')).toBe(true);
	});
});
