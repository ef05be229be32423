/**
 * Monaco's light and dark themes with every text colour at WCAG AA, on every background the
 * editor paints behind text: the editor itself and the diff's inserted/removed lines and words
 * (the approval modal and the Δ tabs). Monaco's own `vs-dark` has comments at 4.2:1 on its
 * background and tokens near 2.5:1 on a removed line. The token colours are Monaco's, each moved
 * toward white (dark) or black (light) only as far as the worst background needs, so the
 * highlighting keeps its hues; the diff overlays are lighter than Monaco's so little has to move.
 */
import {
	composite,
	contrastRatio,
	formatHexColor,
	parseHexColor,
	withContrast,
	type Rgba
} from './contrast.js';
import type { ColorScheme } from './color-scheme.js';

export interface MonacoTokenRule {
	token: string;
	foreground?: string;
	background?: string;
	fontStyle?: string;
}

/** Monaco's IStandaloneThemeData, restated so this file stays free of Monaco's types. */
export interface MonacoThemeData {
	base: 'vs' | 'vs-dark';
	inherit: boolean;
	rules: MonacoTokenRule[];
	colors: Record<string, string>;
}

/** AA for normal text is 4.5:1; a little above it so rounding in a checker never tips it under. */
export const minimumTextContrast = 4.6;

export const monacoThemeNames: Record<ColorScheme, string> = {
	light: 'threadline-light',
	dark: 'threadline-dark'
};

const palettes = {
	dark: {
		background: '#1e1e1e',
		foreground: '#d4d4d4',
		insertedLine: '#2ea04326',
		insertedText: '#2ea04340',
		removedLine: '#f8514926',
		removedText: '#f8514940',
		lineNumber: '#858585',
		activeLineNumber: '#c6c6c6',
		unchangedRegionBackground: '#252526'
	},
	light: {
		background: '#fffffe',
		foreground: '#000000',
		insertedLine: '#2ea0431f',
		insertedText: '#2ea04340',
		removedLine: '#f851491a',
		removedText: '#f8514933',
		lineNumber: '#237893',
		activeLineNumber: '#0b216f',
		unchangedRegionBackground: '#f3f3f3'
	}
} as const;

/** Every opaque colour text can sit on in this scheme's editors and diffs. */
export function textBackgrounds(scheme: ColorScheme): Rgba[] {
	const palette = palettes[scheme];
	const base = parseHexColor(palette.background);
	const over = (...layers: string[]) =>
		layers.reduce((below, layer) => composite(parseHexColor(layer), below), base);
	return [
		base,
		over(palette.insertedLine),
		over(palette.insertedLine, palette.insertedText),
		over(palette.removedLine),
		over(palette.removedLine, palette.removedText),
		parseHexColor(palette.unchangedRegionBackground)
	];
}

/**
 * The scheme's theme, from Monaco's own theme data for it (`vs` / `vs_dark` of
 * monaco-editor/editor/standalone/common/themes.js, passed in so this stays testable in Node).
 */
export function accessibleMonacoTheme(
	scheme: ColorScheme,
	monacoTheme: { rules: readonly MonacoTokenRule[]; colors: Readonly<Record<string, string>> }
): MonacoThemeData {
	const palette = palettes[scheme];
	const backgrounds = textBackgrounds(scheme);
	const toward = scheme === 'dark' ? 'white' : 'black';
	const readable = (color: string) =>
		formatHexColor(withContrast(parseHexColor(color), backgrounds, minimumTextContrast, toward));
	const rules = monacoTheme.rules.map((rule) => {
		if (rule.foreground === undefined) return { ...rule };
		// Token rules are written without `#`; keep that form.
		return { ...rule, foreground: readable(`#${rule.foreground}`).slice(1) };
	});
	return {
		base: scheme === 'dark' ? 'vs-dark' : 'vs',
		inherit: false,
		rules,
		colors: {
			...monacoTheme.colors,
			'editor.background': palette.background,
			'editor.foreground': readable(palette.foreground),
			'editorLineNumber.foreground': readable(palette.lineNumber),
			'editorLineNumber.activeForeground': readable(palette.activeLineNumber),
			'diffEditor.insertedLineBackground': palette.insertedLine,
			'diffEditor.insertedTextBackground': palette.insertedText,
			'diffEditor.removedLineBackground': palette.removedLine,
			'diffEditor.removedTextBackground': palette.removedText,
			'diffEditorGutter.insertedLineBackground': palette.insertedLine,
			'diffEditorGutter.removedLineBackground': palette.removedLine,
			'diffEditor.unchangedRegionBackground': palette.unchangedRegionBackground,
			'diffEditor.unchangedRegionForeground': readable(palette.foreground)
		}
	};
}

/** The lowest contrast of any text colour of `theme` on any of the scheme's backgrounds. */
export function lowestTextContrast(scheme: ColorScheme, theme: MonacoThemeData): number {
	const backgrounds = textBackgrounds(scheme);
	const foregrounds = [
		...theme.rules.flatMap((rule) => (rule.foreground ? [`#${rule.foreground}`] : [])),
		theme.colors['editor.foreground'],
		theme.colors['editorLineNumber.foreground'],
		theme.colors['editorLineNumber.activeForeground'],
		theme.colors['diffEditor.unchangedRegionForeground']
	].flatMap((color) => (color ? [parseHexColor(color)] : []));
	return Math.min(
		...foregrounds.flatMap((foreground) =>
			backgrounds.map((background) => contrastRatio(foreground, background))
		)
	);
}
