import { describe, expect, it } from 'vitest';
import { formatPrompt, promptFolder } from './shell-prompt.js';
import {
	createNewlineTranslator,
	describeError,
	red,
	withoutControlCharacters
} from './terminal-text.js';

describe('createNewlineTranslator', () => {
	it('turns lone LF into CR LF and keeps CR LF, lone CR and colour sequences', () => {
		const translate = createNewlineTranslator();
		expect(translate('a\nb\r\nc\rd\n\n\x1b[1;31me\x1b[0m\n')).toBe(
			'a\r\nb\r\nc\rd\r\n\r\n\x1b[1;31me\x1b[0m\r\n'
		);
	});

	it('handles a leading LF and empty chunks', () => {
		const translate = createNewlineTranslator();
		expect(translate('')).toBe('');
		expect(translate('\nx')).toBe('\r\nx');
	});

	it('does not double a CR LF split across two chunks', () => {
		const translate = createNewlineTranslator();
		expect(translate('one\r') + translate('\ntwo\n')).toBe('one\r\ntwo\r\n');
	});

	it('still translates a leading LF when the previous chunk did not end with CR', () => {
		const translate = createNewlineTranslator();
		expect(translate('one\r\n') + translate('\ntwo')).toBe('one\r\n\r\ntwo');
	});
});

describe('prompt', () => {
	it('names the root workspace and sub-folders under it', () => {
		expect(promptFolder('')).toBe('workspace');
		expect(promptFolder('.')).toBe('workspace');
		expect(promptFolder('src')).toBe('workspace/src');
		expect(promptFolder('src/auth/')).toBe('workspace/src/auth');
		expect(promptFolder('./src//auth')).toBe('workspace/src/auth');
	});

	it('cannot be recoloured by a folder name', () => {
		expect(promptFolder('evil\x1b[2J\x07dir')).toBe('workspace/evil[2Jdir');
	});

	it('shows the folder in colour followed by "$ "', () => {
		expect(formatPrompt('src')).toBe('\x1b[1;36mworkspace/src\x1b[0m $ ');
	});
});

describe('terminal text helpers', () => {
	it('removes C0 and C1 controls but keeps tab, newline and printable text', () => {
		expect(withoutControlCharacters('a\tb\nc\x00\x1b\x7f\x9bd é')).toBe('a\tb\ncd é');
	});

	it('wraps text in red and resets the colour', () => {
		expect(red('no')).toBe('\x1b[31mno\x1b[0m');
	});

	it('describes every kind of rejection plainly', () => {
		expect(describeError(new Error('  boom  '))).toBe('boom');
		expect(describeError('text')).toBe('text');
		expect(describeError({ code: 1 })).toBe('{"code":1}');
		expect(describeError(undefined)).toBe('');
		expect(describeError(null)).toBe('');
		const cyclic: Record<string, unknown> = {};
		cyclic.self = cyclic;
		expect(describeError(cyclic)).toBe('[object Object]');
		expect(describeError(42n)).toBe('42');
	});
});
