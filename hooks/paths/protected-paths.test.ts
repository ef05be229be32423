import { describe, expect, it } from 'vitest';
import { minimatch } from 'minimatch';
import { isProtectedPath, protectedPathPatterns } from './protected-paths.js';

describe('isProtectedPath', () => {
	it.each([
		'.orchestration',
		'.orchestration/active_intents.yaml',
		'.orchestration/deep/nested/file.jsonl',
		'.git',
		'.git/config',
		'.git/hooks/pre-commit',
		'.ORCHESTRATION/active_intents.yaml',
		'.Orchestration',
		'.GIT/HEAD',
		'.Git/config',
		'.git./config',
		'.git /config'
	])('protects %j', (path) => {
		expect(isProtectedPath(path)).toBe(true);
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
		'docs/.git/notes'
	])('does not protect %j', (path) => {
		expect(isProtectedPath(path)).toBe(false);
	});

	it('agrees with the exported glob patterns on ordinary spellings', () => {
		expect(protectedPathPatterns).toEqual(['.orchestration/**', '.git/**']);
		const samples = ['.orchestration/a.yaml', '.git/config', 'src/x.ts', '.gitignore', '.github/x'];
		for (const path of samples) {
			const byPattern = protectedPathPatterns.some((pattern) =>
				minimatch(path, pattern, { dot: true })
			);
			expect(isProtectedPath(path)).toBe(byPattern);
		}
	});
});
