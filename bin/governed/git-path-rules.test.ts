import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	belowGovernanceName,
	governanceNames,
	spellingOf
} from '../../hooks/paths/governance-spellings-test-kit.js';
import { isGovernancePath } from '../../hooks/paths/protected-paths.js';
import {
	branchNameProblem,
	isGovernedByTheCore,
	unsafeSegment
} from '../../sandbox/local/git/git-path-rules.js';

describe("git's path rules", () => {
	// sandbox/ may not import the governance core's functions, so git keeps its own copy of the
	// rule: this keeps the two in step, spellings that fold included.
	it('agrees with the governance core on what is a governance path', () => {
		for (const path of [
			'.orchestration/active_intents.yaml',
			'.ORCHESTRATION/x',
			'.orchestration./x',
			'.orchestration ',
			'.intentignore',
			'.IntentIgnore.',
			'.git/HEAD',
			'.Git',
			'src/.orchestration/x',
			'orchestration/x',
			'README.md',
			'.intentignore-not'
		])
			expect(isGovernedByTheCore(path), path).toBe(isGovernancePath(path));
	});

	it('agrees with the governance core on every confusable, case or width spelling (property)', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(...Object.values(governanceNames)),
				fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 40 }),
				fc.constantFrom(...belowGovernanceName, '/x', 'x', '-not'),
				(name, choices, below) => {
					const path = `${spellingOf(name, choices)}${below}`;
					expect(isGovernedByTheCore(path), JSON.stringify(path)).toBe(isGovernancePath(path));
				}
			),
			{ numRuns: 2000 }
		);
		for (const path of ['.orche\u017ftration/x', '.g\u0131t', '.\u0131ntentignore', '\uff0egit/x'])
			expect(isGovernedByTheCore(path), path).toBe(true);
	});

	it('finds every name git refuses to read back from a tree, and no other', () => {
		for (const unsafe of [
			'src/.Git',
			'.GIT',
			'a/git~1',
			'a/.git~2',
			'.git:stream',
			'x/.g\u200cit',
			'a/..',
			'.git. '
		])
			expect(unsafeSegment(unsafe), unsafe).not.toBeNull();
		for (const safe of ['src/git.ts', '.gitignore', 'a/git~0', 'docs/.github/x', 'git'])
			expect(unsafeSegment(safe), safe).toBeNull();
	});

	it('refuses branch names git would refuse', () => {
		for (const bad of [
			'',
			'HEAD',
			'-x',
			'.hidden',
			'a..b',
			'a b',
			'a~1',
			'x.lock',
			'a/',
			'a@{1}',
			'a\nb'
		])
			expect(branchNameProblem(bad), JSON.stringify(bad)).not.toBeNull();
		for (const good of ['main', 'feature/login', 'fix-42', 'v1.2'])
			expect(branchNameProblem(good), good).toBeNull();
	});
});
