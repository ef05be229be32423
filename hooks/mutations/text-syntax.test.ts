import { describe, expect, it } from 'vitest';
import { extensionOf, fileNameOf, textSyntaxFor, textSyntaxNamed } from './text-syntax.js';

describe('extensionOf and fileNameOf', () => {
	it('reads the last extension in lower case', () => {
		expect(extensionOf('src/App.SVELTE')).toBe('svelte');
		expect(extensionOf('a/b.test.ts')).toBe('ts');
		expect(extensionOf('C:\\work\\main.PY')).toBe('py');
	});

	it('gives no extension to dot files and extensionless files', () => {
		expect(extensionOf('.env')).toBe('');
		expect(extensionOf('Makefile')).toBe('');
		expect(extensionOf('dir.d/README')).toBe('');
		expect(fileNameOf('a/b/.gitignore')).toBe('.gitignore');
	});
});

describe('textSyntaxFor', () => {
	it('picks comment syntax by extension', () => {
		expect(textSyntaxFor('a.py').lineComments).toEqual(['#']);
		expect(textSyntaxFor('a.yml').name).toBe('yaml');
		expect(textSyntaxFor('a.go').lineComments).toEqual(['//']);
		expect(textSyntaxFor('a.css').lineComments).toEqual([]);
		expect(textSyntaxFor('a.css').blockComments).toEqual([['/*', '*/']]);
		expect(textSyntaxFor('a.json').blockComments).toEqual([]);
		expect(textSyntaxFor('index.html').blockComments).toEqual([['<!--', '-->']]);
		expect(textSyntaxFor('App.vue').name).toBe('markup');
		expect(textSyntaxFor('q.sql').lineComments).toEqual(['--']);
	});

	it('knows files by name', () => {
		expect(textSyntaxFor('Makefile').indentation).toBe('exact');
		expect(textSyntaxFor('docker/Dockerfile').lineComments).toEqual(['#']);
		expect(textSyntaxFor('.gitignore').lineComments).toEqual(['#']);
		expect(textSyntaxFor('.env.local').lineComments).toEqual(['#']);
		expect(textSyntaxFor('.orchestration/.intentignore').lineComments).toEqual(['#']);
		expect(textSyntaxFor('tsconfig.json').lineComments).toEqual(['//']);
	});

	it('falls back to whitespace only for unknown files', () => {
		const syntax = textSyntaxFor('notes.txt');
		expect(syntax.name).toBe('plain text');
		expect(syntax.lineComments).toEqual([]);
		expect(syntax.blockComments).toEqual([]);
		expect(textSyntaxFor('LICENSE').name).toBe('plain text');
	});

	it('rejects an unknown syntax name', () => {
		expect(() => textSyntaxNamed('cobol')).toThrow(/Unknown text syntax "cobol"/);
	});
});
