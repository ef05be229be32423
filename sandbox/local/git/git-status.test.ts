import { describe, expect, it } from 'vitest';
import {
	changedFiles,
	fileStatusOf,
	longStatus,
	shortStatus,
	type StatusRow
} from './git-status.js';

describe("git status codes from isomorphic-git's matrix", () => {
	// The rows isomorphic-git documents, with what `git status --porcelain` prints for them.
	const cases: [StatusRow, string][] = [
		[['new.txt', 0, 2, 0], '?? new.txt'],
		[['added.txt', 0, 2, 2], 'A  added.txt'],
		[['added-then-edited.txt', 0, 2, 3], 'AM added-then-edited.txt'],
		[['unchanged.txt', 1, 1, 1], ''],
		[['edited.txt', 1, 2, 1], ' M edited.txt'],
		[['staged.txt', 1, 2, 2], 'M  staged.txt'],
		[['staged-then-edited.txt', 1, 2, 3], 'MM staged-then-edited.txt'],
		[['deleted.txt', 1, 0, 1], ' D deleted.txt'],
		[['removed.txt', 1, 0, 0], 'D  removed.txt'],
		[['untracked-again.txt', 1, 1, 0], 'D  untracked-again.txt\n?? untracked-again.txt'],
		[['staged-edit-undone.txt', 1, 1, 3], 'MM staged-edit-undone.txt'],
		[['added-then-deleted.txt', 0, 0, 3], 'AD added-then-deleted.txt']
	];
	it.each(cases)('%j → %j', (row, expected) => {
		expect(shortStatus([fileStatusOf(row)])).toBe(expected ? `${expected}\n` : '');
	});

	it('lists only what changed, by path', () => {
		const files = changedFiles([
			['b.txt', 1, 2, 1],
			['a.txt', 1, 1, 1],
			['a/z.txt', 0, 2, 0]
		]);
		expect(files.map((file) => file.path)).toEqual(['a/z.txt', 'b.txt']);
	});

	it("writes git's long format, with the hint for each section", () => {
		const text = longStatus(
			changedFiles([
				['staged.txt', 1, 2, 2],
				['edited.txt', 1, 2, 1],
				['new.txt', 0, 2, 0]
			]),
			{ branch: 'main', headOid: 'a'.repeat(40) }
		);
		expect(text).toBe(
			[
				'On branch main',
				'Changes to be committed:',
				'  (use "git restore --staged <file>..." to unstage)',
				'\tmodified:   staged.txt',
				'',
				'Changes not staged for commit:',
				'  (use "git add <file>..." to update what will be committed)',
				'  (use "git restore <file>..." to discard changes in working directory)',
				'\tmodified:   edited.txt',
				'',
				'Untracked files:',
				'  (use "git add <file>..." to include in what will be committed)',
				'\tnew.txt',
				'',
				''
			].join('\n')
		);
		expect(longStatus([], { branch: null, headOid: 'abcdef1234' })).toBe(
			'HEAD detached at abcdef1\nnothing to commit, working tree clean\n'
		);
	});
});
