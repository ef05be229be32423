import { describe, expect, it } from 'vitest';
import { normalizeText } from './normalize-text.js';
import { textSyntaxNamed } from './text-syntax.js';

const python = textSyntaxNamed('python');
const yaml = textSyntaxNamed('yaml');
const shell = textSyntaxNamed('shell');
const c = textSyntaxNamed('c');
const java = textSyntaxNamed('c-like-free-form');
const go = textSyntaxNamed('c-like');
const json = textSyntaxNamed('json');
const markdown = textSyntaxNamed('markdown');
const makefile = textSyntaxNamed('makefile');
const plain = textSyntaxNamed('plain text');

function same(syntax: Parameters<typeof normalizeText>[1], left: string, right: string): boolean {
	return normalizeText(left, syntax) === normalizeText(right, syntax);
}

describe('normalizeText', () => {
	it('drops blank lines, trailing whitespace and line comments', () => {
		expect(normalizeText('a = 1  # set a\n\n\n# alone\nb = 2\r\n', python)).toBe('0\ta=1\n0\tb=2');
	});

	it('returns an empty form for text that is only comments and whitespace', () => {
		expect(normalizeText('# one\n   \n# two\n', python)).toBe('');
		expect(normalizeText('', plain)).toBe('');
	});

	it('keeps strings exactly, including what looks like comments or spaces', () => {
		expect(normalizeText('x = "a  # b"  # c', python)).toBe('0\tx="a  # b"');
		expect(same(python, "x = 'a b'", "x = 'a  b'")).toBe(false);
		expect(same(c, 'char *s = "http://x"; // y', 'char *s = "http://x";')).toBe(true);
		expect(same(c, 'char *s = "http://x";', 'char *s = "http://y";')).toBe(false);
	});

	it('handles escaped quotes and triple-quoted strings', () => {
		expect(normalizeText('s = "a\\" # b" # c', python)).toBe('0\ts="a\\" # b"');
		const docstring = 'def f():\n    """Doc\n    # not a comment\n    """\n';
		expect(normalizeText(docstring, python)).toContain('# not a comment');
	});

	it('ends an unterminated string at the end of its line', () => {
		expect(normalizeText("it's here # note\nnext # note", yaml)).toBe(
			"0\tit's here # note\n0\tnext"
		);
	});

	it('treats # as a comment only where a word could start', () => {
		expect(normalizeText('echo $# ${#list} a#b # c', shell)).toBe('echo $# ${#list} a#b');
	});

	it('keeps a shebang line', () => {
		expect(normalizeText('#!/bin/sh\n# comment\necho hi\n', shell)).toBe('#!/bin/sh\necho hi');
	});

	it('removes block comments, even across lines, but leaves an unclosed one as text', () => {
		expect(normalizeText('int a; /* one\n two */ int b;', c)).toBe('int a; int b;');
		expect(normalizeText('int a; /* open', c)).toBe('int a; /* open');
	});

	it('collapses spaces to one but keeps them between words', () => {
		expect(normalizeText('a    b\t c', plain)).toBe('0\ta b c');
		expect(same(plain, 'a b', 'ab')).toBe(false);
		expect(same(c, 'x = 1;', 'x=1;')).toBe(false);
	});

	it('drops spaces next to punctuation for tight languages, but not between operators', () => {
		expect(same(python, 'f( a, b )', 'f(a,b)')).toBe(true);
		expect(same(python, 'x = a * b', 'x=a*b')).toBe(true);
		expect(same(python, 'return x', 'returnx')).toBe(false);
		expect(same(go, 'a < -b', 'a <- b')).toBe(false);
		expect(same(go, 'f(g(x) )', 'f(g(x))')).toBe(true);
	});

	it('keeps line breaks where they end statements, and not where they are whitespace', () => {
		expect(same(go, 'return\nx', 'return x')).toBe(false);
		expect(same(java, 'return\n    x;', 'return x;')).toBe(true);
		expect(same(python, 'a\nb', 'a b')).toBe(false);
	});

	it('compares indentation as nesting levels where indentation is syntax', () => {
		expect(same(python, 'if a:\n    b\nc', 'if a:\n  b\nc')).toBe(true);
		expect(same(python, 'if a:\n    b\nc', 'if a:\n    b\n    c')).toBe(false);
		expect(same(python, 'if a:\n\tb', 'if a:\n        b')).toBe(true);
		expect(same(markdown, '- a\n  - b', '- a\n- b')).toBe(false);
		expect(same(c, 'int a;\n    int b;', 'int a;\nint b;')).toBe(true);
	});

	it('keeps indentation exactly for makefiles (recipes need tabs)', () => {
		expect(same(makefile, 'all:\n\tcc x.c', 'all:\n        cc x.c')).toBe(false);
		expect(same(makefile, 'all:\n\tcc x.c # build', 'all:\n\tcc x.c')).toBe(true);
	});

	it('removes all whitespace outside strings in JSON', () => {
		expect(normalizeText('{ "a" : [ 1, 2 ],\n  "b": "x y" }\n', json)).toBe(
			'{"a":[1,2],"b":"x y"}'
		);
	});
});
