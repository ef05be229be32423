import { describe, expect, it } from 'vitest';
import { fuzzyMatch, rankPaths } from './fuzzy-match.js';

const paths = [
	'src/auth/jwt.ts',
	'src/middleware/jwt.ts',
	'src/middleware/require-session.ts',
	'tests/auth/jwt.test.ts',
	'README.md',
	'package.json'
];

describe('fuzzyMatch', () => {
	it('matches letters in order, case-insensitively, ignoring spaces', () => {
		expect(fuzzyMatch('RS', 'src/middleware/require-session.ts')?.positions).toEqual([15, 23]);
		expect(fuzzyMatch('mid jwt', 'src/middleware/jwt.ts')).not.toBeNull();
		expect(fuzzyMatch('zz', 'src/auth/jwt.ts')).toBeNull();
		expect(fuzzyMatch('', 'a')?.score).toBe(0);
	});
});

describe('rankPaths', () => {
	it('puts a file-name prefix first and shorter paths before longer ones', () => {
		expect(rankPaths('jwt', paths).map((match) => match.path)).toEqual([
			'src/auth/jwt.ts',
			'src/middleware/jwt.ts',
			'tests/auth/jwt.test.ts'
		]);
		expect(rankPaths('readme', paths)[0]?.path).toBe('README.md');
		expect(rankPaths('reqses', paths)[0]?.path).toBe('src/middleware/require-session.ts');
		expect(rankPaths('s', paths, 2)).toHaveLength(2);
	});
});
