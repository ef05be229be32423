import { describe, expect, it } from 'vitest';
import type { EntryChange, EntryState } from '../tools/sandbox-ports.js';
import {
	agentPathCheck,
	canonicalPathProblem,
	describeReview,
	reviewEntryChanges
} from './shell-transaction.js';
import { isGovernancePath } from '../paths/protected-paths.js';

const file: EntryState = { kind: 'file', data: new Uint8Array([1]) };
const folder: EntryState = { kind: 'folder' };
const absent: EntryState = { kind: 'absent' };
const change = (path: string, before: EntryState, after: EntryState): EntryChange => ({
	path,
	before,
	after
});
const check = agentPathCheck({
	intentId: 'INT-001',
	isInScope: (_intent, path) => path.startsWith('src/auth/') || /^src\/[^/]+$/.test(path),
	scopeMessage: (intent, path) => `${intent} may not change ${path}`
});
const paths = (entries: { path: string }[]) => entries.map((entry) => entry.path);

describe('reviewEntryChanges: the whole set at once', () => {
	it('keeps a folder swapped for a file when what it held is refused (scope src/*)', () => {
		// `rm -r src/db; echo x > src/db`: the folder's file is out of scope, so the folder stays.
		const review = reviewEntryChanges(
			[change('src/db', folder, file), change('src/db/users.ts', file, absent)],
			check
		);
		expect(paths(review.allowed)).toEqual([]);
		expect(review.refused.map(({ entry, error }) => [entry.path, error.code])).toEqual([
			['src/db', 'scope_violation'],
			['src/db/users.ts', 'scope_violation']
		]);
	});

	it('refuses what lies below a refused new folder, and allows a folder an allowed file needs', () => {
		const review = reviewEntryChanges(
			[
				change('.git/refs/heads/evil', absent, folder),
				change('.git/refs/heads/evil/x', absent, file),
				change('src/auth', absent, folder),
				change('src/auth/new.ts', absent, file),
				change('lib', absent, folder),
				change('lib/x.ts', absent, file)
			],
			check
		);
		expect(paths(review.allowed)).toEqual(['src/auth', 'src/auth/new.ts']);
	});

	it('a file↔folder swap under a protected path is refused as a unit', () => {
		const review = reviewEntryChanges(
			[change('.git/HEAD', file, folder), change('.git/HEAD/x', absent, file)],
			check
		);
		expect(review.allowed).toEqual([]);
		expect(describeReview(review)).toContain('.git/HEAD/ (protected_path)');
	});

	it.each([
		['.ORCHESTRATION/x', true],
		['.orchestration./x', true],
		['.Git/config', true],
		['.git ', true],
		['.intentignore', true],
		['.IntentIgnore.', true],
		['src/.intentignore', false],
		['src/auth/x.ts', false]
	])('isGovernancePath(%j) is %s', (path, governed) => {
		expect(isGovernancePath(path)).toBe(governed);
	});

	it.each(['a\\b', 'e\u0301.ts', 'a/./b', 'a\nb'])('refuses the ungovernable name %j', (path) => {
		expect(canonicalPathProblem(path)?.code).toBe('protected_path');
	});
});
