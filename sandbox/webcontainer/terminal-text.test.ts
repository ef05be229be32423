import { describe, expect, it } from 'vitest';
import { cleanTerminalText, TerminalTextCleaner } from './terminal-text.js';

const escape = '\u001b';

describe('cleanTerminalText', () => {
	it('turns CRLF into LF and keeps plain text', () => {
		expect(cleanTerminalText('one\r\ntwo\r\n')).toBe('one\ntwo\n');
		expect(cleanTerminalText('no newline')).toBe('no newline');
		expect(cleanTerminalText('')).toBe('');
	});

	it('removes colours and other CSI sequences', () => {
		expect(cleanTerminalText(`${escape}[1;32mok${escape}[0m done${escape}[?25h\n`)).toBe(
			'ok done\n'
		);
	});

	it('removes OSC sequences ended by BEL or by ESC backslash', () => {
		expect(cleanTerminalText(`${escape}]654;interactive\u0007prompt`)).toBe('prompt');
		expect(cleanTerminalText(`${escape}]0;title${escape}\\text`)).toBe('text');
	});

	it('removes short escape sequences', () => {
		expect(cleanTerminalText(`${escape}(Bplain${escape}7x${escape}8`)).toBe('plainx');
	});

	it('keeps only the last state of a line redrawn with a carriage return', () => {
		expect(cleanTerminalText('10%\r50%\r100%\ndone\n')).toBe('100%\ndone\n');
	});

	it('treats "cursor to column 1" as a redraw (npm spinners)', () => {
		expect(
			cleanTerminalText(
				`${escape}[1G${escape}[0K⠙${escape}[1G${escape}[0K⠹${escape}[1G${escape}[0Kadded 1 package\n`
			)
		).toBe('added 1 package\n');
	});

	it('applies backspaces and drops bells', () => {
		expect(cleanTerminalText('abc\b\bX\u0007\n')).toBe('aX\n');
	});
});

describe('TerminalTextCleaner (streaming)', () => {
	it('releases whole lines only, the rest on flush', () => {
		const cleaner = new TerminalTextCleaner();
		expect(cleaner.push('first li')).toBe('');
		expect(cleaner.push('ne\nsecond')).toBe('first line\n');
		expect(cleaner.flush()).toBe('second');
		expect(cleaner.flush()).toBe('');
	});

	it('joins a CRLF split across chunks', () => {
		const cleaner = new TerminalTextCleaner();
		expect(cleaner.push('line\r')).toBe('');
		expect(cleaner.push('\nnext\r\n')).toBe('line\nnext\n');
	});

	it('treats a carriage return at a chunk end followed by text as a redraw', () => {
		const cleaner = new TerminalTextCleaner();
		cleaner.push('old\r');
		expect(cleaner.push('new\n')).toBe('new\n');
	});

	it('holds an escape sequence split across chunks until it is complete', () => {
		const cleaner = new TerminalTextCleaner();
		expect(cleaner.push(`red ${escape}[3`)).toBe('');
		expect(cleaner.push(`1mtext${escape}`)).toBe('');
		expect(cleaner.push('[0m\n')).toBe('red text\n');
	});

	it('drops an escape sequence cut off at the very end', () => {
		const cleaner = new TerminalTextCleaner();
		expect(cleaner.push(`tail${escape}]0;never ends`)).toBe('');
		expect(cleaner.flush()).toBe('tail');
	});

	it('gives the same text whatever the chunking', () => {
		const raw = `${escape}[32mA${escape}[0m\r\nB\r\n${escape}]0;t\u0007C\r50%\r100%\r\n`;
		const whole = cleanTerminalText(raw);
		for (let size = 1; size <= 5; size += 1) {
			const cleaner = new TerminalTextCleaner();
			let streamed = '';
			for (let index = 0; index < raw.length; index += size) {
				streamed += cleaner.push(raw.slice(index, index + size));
			}
			expect(streamed + cleaner.flush()).toBe(whole);
		}
		expect(whole).toBe('A\nB\n100%\n');
	});
});
