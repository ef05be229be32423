import fc from 'fast-check';
import { minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';
import {
	belowGovernanceName,
	governanceNames,
	spellingOf
} from './governance-spellings-test-kit.js';
import {
	foldedName,
	governancePathKind,
	governancePathPatterns,
	isGovernancePath,
	type GovernancePathKind
} from './protected-paths.js';

const kinds = Object.keys(governanceNames) as GovernancePathKind[];

/** A governance name in some confusable spelling, with a path below it; and the kind it is. */
const governanceSpelling = fc
	.record({
		kind: fc.constantFrom(...kinds),
		choices: fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 40 }),
		below: fc.constantFrom(...belowGovernanceName)
	})
	.map(({ kind, choices, below }) => ({
		kind,
		path: `${spellingOf(governanceNames[kind], choices)}${below}`
	}));

describe('governancePathKind', () => {
	it.each([
		['.orchestration', 'orchestration'],
		['.orchestration/active_intents.yaml', 'orchestration'],
		['.orchestration/deep/nested/file.jsonl', 'orchestration'],
		['.git', 'git'],
		['.git/config', 'git'],
		['.ORCHESTRATION/active_intents.yaml', 'orchestration'],
		['.Git/config', 'git'],
		['.git./config', 'git'],
		['.git /config', 'git'],
		['.intentignore', 'intentignore'],
		['.IntentIgnore.', 'intentignore'],
		// The three: long s and dotless i fold to s and i.
		['.orche\u017ftration/x', 'orchestration'],
		['.g\u0131t/config', 'git'],
		['.\u0131ntentignore', 'intentignore'],
		['.G\u0130T/HEAD', 'git'],
		// Full-width and mathematical forms (NFKC), the full-width dot too.
		['\uff0e\uff47\uff49\uff54/HEAD', 'git'],
		['.\ud835\udc22ntentignore', 'intentignore'],
		// Invisible characters (HFS+ ignores them), combining marks, look-alike letters.
		['.g\u200cit/x', 'git'],
		['.intent\u00adignore', 'intentignore'],
		['.gi\u0307t', 'git'],
		['.\u043erchestration/x', 'orchestration'],
		['.intentignore\u3000', 'intentignore'],
		['.intentignore:stream', 'intentignore'],
		// Unnormalised paths are judged by where they lead.
		['./.git/x', 'git'],
		['src/../.intentignore', 'intentignore'],
		['.git\\config', 'git']
	])('%j is %s', (path, kind) => {
		expect(governancePathKind(path)).toBe(kind);
	});

	it.each([
		'',
		'src/index.ts',
		'.gitignore',
		'.github/workflows/ci.yml',
		'.gitattributes',
		'.git-blame-ignore-revs',
		'.orchestrations/x',
		'orchestration/x',
		'git/config',
		'src/.orchestration/x',
		'src/.intentignore',
		'docs/.git/notes',
		'.intentignore-not',
		'.intentignores',
		'.g1t',
		'intentignore'
	])('%j is not a governance path', (path) => {
		expect(governancePathKind(path)).toBeNull();
	});

	it('agrees with the exported glob patterns on ordinary spellings', () => {
		expect(governancePathPatterns).toEqual(['.orchestration/**', '.git/**', '.intentignore']);
		const samples = [
			'.orchestration/a.yaml',
			'.git/config',
			'.intentignore',
			'src/x.ts',
			'.gitignore',
			'.github/x'
		];
		for (const path of samples) {
			const byPattern = governancePathPatterns.some((pattern) =>
				minimatch(path, pattern, { dot: true })
			);
			expect(isGovernancePath(path)).toBe(byPattern);
		}
	});

	it('finds the governance name in every confusable, case or width spelling (property)', () => {
		fc.assert(
			fc.property(governanceSpelling, ({ kind, path }) => {
				expect(governancePathKind(path), JSON.stringify(path)).toBe(kind);
			}),
			{ numRuns: 2000 }
		);
	});

	it('folds only what looks the same: other names stay apart (property)', () => {
		fc.assert(
			fc.property(fc.stringMatching(/^[a-z0-9_-]{1,12}$/), (name) => {
				expect(foldedName(name)).toBe(name);
				expect(governancePathKind(`src/${name}`)).toBeNull();
			})
		);
	});
});
