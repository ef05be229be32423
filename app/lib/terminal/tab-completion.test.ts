import { describe, expect, it } from 'vitest';
import {
	childrenOf,
	completeLine,
	formatCandidates,
	resolveFolder,
	type CompletionSource
} from './tab-completion.js';

const files = [
	'README.md',
	'package.json',
	'src/auth/jwt.ts',
	'src/auth/password.ts',
	'src/auth/session-store.ts',
	'src/db/users.ts',
	'tests/auth.test.ts',
	'.orchestration/active_intents.yaml',
	'.intentignore'
];
const source: CompletionSource = {
	commands: ['cat', 'cd', 'echo', 'git', 'grep', 'ls', 'node', 'npm', 'npx'],
	children: (folder) => {
		const entries = childrenOf(folder, files, ['empty']);
		return entries.length ? entries : null;
	}
};

describe('completeLine', () => {
	it('completes a unique command with a space', () => {
		expect(completeLine('ec', '', source)).toEqual({ line: 'echo ', candidates: [] });
		expect(completeLine('ls && ca', '', source)).toEqual({ line: 'ls && cat ', candidates: [] });
	});

	it('extends to the shared prefix, then lists the matches', () => {
		expect(completeLine('n', '', source)).toEqual({
			line: 'n',
			candidates: ['node', 'npm', 'npx']
		});
		expect(completeLine('np', '', source)).toEqual({ line: 'np', candidates: ['npm', 'npx'] });
		expect(completeLine('g', '', source)).toEqual({ line: 'g', candidates: ['git', 'grep'] });
		const withGit = { ...source, subcommands: { git: ['status', 'show', 'switch', 'commit'] } };
		expect(completeLine('git st', '', withGit)).toEqual({ line: 'git status ', candidates: [] });
		expect(completeLine('ls && git s', '', withGit).candidates).toEqual([
			'show',
			'status',
			'switch'
		]);
		// After the subcommand, paths again; a word no subcommand starts with is a path too.
		expect(completeLine('git add RE', '', withGit).line).toBe('git add README.md ');
		expect(completeLine('echo git st', '', withGit).line).toBe('echo git st');
	});

	it('completes paths after the command, folders with a slash', () => {
		expect(completeLine('cat s', '', source)).toEqual({ line: 'cat src/', candidates: [] });
		expect(completeLine('cat src/auth/j', '', source)).toEqual({
			line: 'cat src/auth/jwt.ts ',
			candidates: []
		});
		expect(completeLine('cat src/auth/', '', source)).toEqual({
			line: 'cat src/auth/',
			candidates: ['jwt.ts', 'password.ts', 'session-store.ts']
		});
		expect(completeLine('cat src/auth/s', '', source).line).toBe('cat src/auth/session-store.ts ');
	});

	it('works from the terminal’s folder, with .. and /workspace', () => {
		expect(completeLine('cat j', 'src/auth', source).line).toBe('cat jwt.ts ');
		expect(completeLine('cat ../db/u', 'src/auth', source).line).toBe('cat ../db/users.ts ');
		expect(completeLine('cat /workspace/tes', 'src', source).line).toBe('cat /workspace/tests/');
		expect(completeLine('cat ../../../etc/pa', 'src', source)).toEqual({
			line: 'cat ../../../etc/pa',
			candidates: []
		});
		expect(completeLine('cat /etc/pa', '', source).candidates).toEqual([]);
	});

	it('offers hidden entries only when the word starts with a dot', () => {
		expect(completeLine('ls ', '', source).candidates).toEqual([
			'empty/',
			'package.json',
			'README.md',
			'src/',
			'tests/'
		]);
		expect(completeLine('ls .', '', source).candidates).toEqual([
			'.intentignore',
			'.orchestration/'
		]);
		expect(completeLine('ls .o', '', source).line).toBe('ls .orchestration/');
	});

	it('completes a path in command position when it has a slash (./script)', () => {
		expect(completeLine('./te', '', source).line).toBe('./tests/');
	});

	it('leaves the line alone when nothing matches', () => {
		expect(completeLine('zz', '', source)).toEqual({ line: 'zz', candidates: [] });
		expect(completeLine('cat nothing/x', '', source)).toEqual({
			line: 'cat nothing/x',
			candidates: []
		});
	});
});

describe('completeLine with the shell’s grammar', () => {
	const spaced: CompletionSource = {
		commands: ['cat', 'grep', 'ls'],
		children: (folder) =>
			childrenOf(
				folder,
				['my notes.md', 'my notes (old).md', 'a$b.txt', 'evil\u001b[2Jname.txt', 'evil2.txt'],
				[]
			)
	};

	it('completes after a pipe, a semicolon or && without spaces', () => {
		expect(completeLine('ls|gr', '', source).line).toBe('ls|grep ');
		expect(completeLine('ls;ec', '', source).line).toBe('ls;echo ');
		expect(completeLine('ls&&ca', '', source).line).toBe('ls&&cat ');
	});

	it('completes a path after a redirect', () => {
		expect(completeLine('echo hi >tes', '', source).line).toBe('echo hi >tests/');
		expect(completeLine('cat <RE', '', source).line).toBe('cat <README.md ');
	});

	it('escapes what the shell would split or expand, and reads escaped words back', () => {
		expect(completeLine('cat a', '', spaced).line).toBe('cat a\\$b.txt ');
		expect(completeLine('cat my', '', spaced).line).toBe('cat my\\ notes');
		expect(completeLine('cat my\\ notes\\ \\(', '', spaced).line).toBe(
			'cat my\\ notes\\ \\(old\\).md '
		);
	});

	it('completes inside an open quote and closes it', () => {
		expect(completeLine('cat "my notes.', '', spaced).line).toBe('cat "my notes.md" ');
		expect(completeLine("cat 'a", '', spaced).line).toBe("cat 'a$b.txt' ");
	});

	it('never prints a control character from a file name', () => {
		const listed = completeLine('cat evil', '', spaced);
		expect(listed.candidates).toEqual(['evil?[2Jname.txt', 'evil2.txt']);
		expect(listed.candidates.join('')).not.toContain('\u001b');
	});
});

describe('resolveFolder', () => {
	it('stays inside the workspace', () => {
		expect(resolveFolder('', '')).toBe('');
		expect(resolveFolder('src', './auth/')).toBe('src/auth');
		expect(resolveFolder('src', '../')).toBe('');
		expect(resolveFolder('', '../')).toBeNull();
		expect(resolveFolder('src', '/workspace/tests/')).toBe('tests');
		expect(resolveFolder('src', '/tmp/')).toBeNull();
	});
});

describe('formatCandidates', () => {
	it('lays out columns down then across, within the width', () => {
		expect(formatCandidates(['a', 'bb', 'ccc', 'dddd', 'e'], 14)).toEqual([
			'a     dddd',
			'bb    e',
			'ccc'
		]);
		expect(formatCandidates(['one'], 2)).toEqual(['one']);
	});
});
