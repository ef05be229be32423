import { describe, expect, it } from 'vitest';
import { languageForPath, plainTextLanguage } from './language-for-path.js';

describe('languageForPath', () => {
	it.each([
		['src/auth/jwt.ts', 'typescript'],
		['src/App.tsx', 'typescript'],
		['src/types.d.ts', 'typescript'],
		['scripts/build.mts', 'typescript'],
		['index.js', 'javascript'],
		['component.jsx', 'javascript'],
		['server.mjs', 'javascript'],
		['config.cjs', 'javascript'],
		['package.json', 'json'],
		['tsconfig.jsonc', 'json'],
		['README.md', 'markdown'],
		['.orchestration/active_intents.yaml', 'yaml'],
		['.github/workflows/ci.yml', 'yaml'],
		['styles/site.css', 'css'],
		['styles/theme.scss', 'scss'],
		['public/index.html', 'html'],
		['src/routes/+page.svelte', 'html'],
		['tools/check.py', 'python'],
		['scripts/setup.sh', 'shell'],
		['notes.txt', plainTextLanguage]
	])('%s opens as %s', (path, language) => {
		expect(languageForPath(path)).toBe(language);
	});

	it('recognises file names that have no extension', () => {
		expect(languageForPath('Dockerfile')).toBe('dockerfile');
		expect(languageForPath('docker/Dockerfile')).toBe('dockerfile');
		expect(languageForPath('Dockerfile.dev')).toBe('dockerfile');
		expect(languageForPath('.bashrc')).toBe('shell');
		expect(languageForPath('.prettierrc')).toBe('json');
	});

	it('opens .env files as ini, including their variants', () => {
		expect(languageForPath('.env')).toBe('ini');
		expect(languageForPath('.env.local')).toBe('ini');
		expect(languageForPath('app/.env.production')).toBe('ini');
		// Only the dotfile family: a file merely called "env" is not one of them.
		expect(languageForPath('env')).toBe(plainTextLanguage);
		expect(languageForPath('.environment')).toBe(plainTextLanguage);
	});

	it('ignores the case of names and extensions', () => {
		expect(languageForPath('SRC/MAIN.TS')).toBe('typescript');
		expect(languageForPath('DOCKERFILE')).toBe('dockerfile');
		expect(languageForPath('Notes.Md')).toBe('markdown');
	});

	it('uses only the last segment, so a dotted folder does not leak its "extension"', () => {
		expect(languageForPath('config.d/Makefile')).toBe(plainTextLanguage);
		expect(languageForPath('my.ts/readme')).toBe(plainTextLanguage);
		expect(languageForPath('windows\\style\\path.ts')).toBe('typescript');
	});

	it('falls back to plaintext for unknown, hidden and empty names', () => {
		expect(languageForPath('archive.xyz')).toBe(plainTextLanguage);
		expect(languageForPath('.gitignore')).toBe(plainTextLanguage);
		expect(languageForPath('.intentignore')).toBe(plainTextLanguage);
		expect(languageForPath('.json')).toBe(plainTextLanguage);
		expect(languageForPath('Makefile')).toBe(plainTextLanguage);
		expect(languageForPath('trailing.')).toBe(plainTextLanguage);
		expect(languageForPath('')).toBe(plainTextLanguage);
		expect(languageForPath('src/')).toBe(plainTextLanguage);
	});
});
