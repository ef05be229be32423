import { describe, expect, it } from 'vitest';
import { contrastRatio, relativeLuminance } from './color-contrast.js';
import {
	lightTerminalColors,
	terminalColors,
	terminalColorsFor,
	terminalFontFamily,
	terminalMinimumContrastRatio
} from './terminal-theme.js';

describe('contrastRatio', () => {
	it('matches the WCAG reference values', () => {
		expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
		expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
		// #767676 on white is the classic "just passes AA" grey.
		expect(contrastRatio('#767676', '#ffffff')).toBeGreaterThanOrEqual(4.5);
		expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(4.5);
		expect(contrastRatio('#ABCDEF', '#abcdef')).toBe(1);
	});

	it('rejects colours it cannot read', () => {
		expect(() => relativeLuminance('red')).toThrow(/#rrggbb.*"red"/);
		expect(() => relativeLuminance('#fff')).toThrow(/#rrggbb/);
	});
});

describe.each([
	['dark', terminalColors],
	['light', lightTerminalColors]
] as const)('the %s terminal theme', (scheme, colors) => {
	const textColors = Object.entries(colors).filter(
		([name]) =>
			![
				'background',
				scheme === 'dark' ? 'black' : 'white',
				'cursorAccent',
				'selectionBackground',
				'cursor'
			].includes(name)
	);

	it('is the one chosen for its scheme', () => {
		expect(terminalColorsFor(scheme)).toBe(colors);
	});

	it.each(textColors)('%s (%s) reaches WCAG AA on the background', (_name, color) => {
		expect(contrastRatio(color, colors.background)).toBeGreaterThanOrEqual(4.5);
	});

	it('keeps selected text and the cursor readable', () => {
		expect(
			contrastRatio(colors.selectionForeground, colors.selectionBackground)
		).toBeGreaterThanOrEqual(4.5);
		expect(contrastRatio(colors.cursor, colors.cursorAccent)).toBeGreaterThanOrEqual(4.5);
		expect(contrastRatio(colors.cursor, colors.background)).toBeGreaterThanOrEqual(3);
	});
});

describe('terminal options', () => {
	it('asks xterm to lift any colour a program picks below AA', () => {
		expect(terminalMinimumContrastRatio).toBeGreaterThanOrEqual(4.5);
	});

	it('uses only installed fonts and ends with the generic monospace family', () => {
		expect(terminalFontFamily).not.toMatch(/url\(|https?:/);
		expect(terminalFontFamily.split(',').at(-1)?.trim()).toBe('monospace');
	});
});
