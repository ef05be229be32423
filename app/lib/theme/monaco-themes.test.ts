import { describe, expect, it } from 'vitest';
// Monaco's own theme data (plain objects; the module needs no DOM).
import { vs, vs_dark } from 'monaco-editor/editor/standalone/common/themes.js';
import { contrastRatio, parseHexColor } from './contrast.js';
import {
	accessibleMonacoTheme,
	lowestTextContrast,
	minimumTextContrast,
	textBackgrounds,
	type MonacoThemeData
} from './monaco-themes.js';

const monacoThemes = { dark: vs_dark, light: vs } as unknown as Record<
	'dark' | 'light',
	MonacoThemeData
>;

describe('accessibleMonacoTheme', () => {
	for (const scheme of ['dark', 'light'] as const) {
		it(`${scheme}: Monaco's own theme falls below AA somewhere (what this fixes)`, () => {
			expect(lowestTextContrast(scheme, monacoThemes[scheme])).toBeLessThan(4.5);
		});

		it(`${scheme}: every token, line number and diff label reaches AA on the editor and on every diff background`, () => {
			const theme = accessibleMonacoTheme(scheme, monacoThemes[scheme]);
			expect(lowestTextContrast(scheme, theme)).toBeGreaterThanOrEqual(minimumTextContrast);
			expect(theme.rules.length).toBe(monacoThemes[scheme].rules.length);
		});
	}

	it('keeps colours that already pass and moves comments only as far as needed', () => {
		const theme = accessibleMonacoTheme('dark', monacoThemes.dark);
		const rule = (token: string) => theme.rules.find((candidate) => candidate.token === token);
		expect(rule('')?.foreground?.toLowerCase()).toBe('d4d4d4');
		const comment = parseHexColor(`#${rule('comment')?.foreground}`);
		const worst = Math.min(
			...textBackgrounds('dark').map((background) => contrastRatio(comment, background))
		);
		expect(worst).toBeGreaterThanOrEqual(minimumTextContrast);
		expect(worst).toBeLessThan(minimumTextContrast + 0.3);
		// Still green: the hue of a comment stays.
		expect(comment.green).toBeGreaterThan(comment.red);
	});
});
