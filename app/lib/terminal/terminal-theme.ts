/**
 * The terminal's look: a dark and a light theme (following the system, like the page) whose text
 * colours all reach WCAG AA (4.5:1) against their background, and a font stack of fonts that ship with the operating system, so nothing is
 * downloaded (the page is cross-origin isolated; a web font would need CORP headers too).
 */

/** Colours as xterm's `ITheme` expects them (kept structural: this file imports no xterm). */
export interface TerminalColors {
	foreground: string;
	background: string;
	cursor: string;
	cursorAccent: string;
	selectionBackground: string;
	selectionForeground: string;
	black: string;
	red: string;
	green: string;
	yellow: string;
	blue: string;
	magenta: string;
	cyan: string;
	white: string;
	brightBlack: string;
	brightRed: string;
	brightGreen: string;
	brightYellow: string;
	brightBlue: string;
	brightMagenta: string;
	brightCyan: string;
	brightWhite: string;
}

import type { ColorScheme } from '../theme/color-scheme.js';

export const terminalColors: TerminalColors = {
	foreground: '#d8dee9',
	background: '#16181d',
	cursor: '#f5f7fa',
	cursorAccent: '#16181d',
	selectionBackground: '#3b4252',
	selectionForeground: '#ffffff',
	// ANSI black is a background colour in practice; as text it is lifted by minimumContrastRatio.
	black: '#3b4048',
	red: '#ff7b72',
	green: '#7ee787',
	yellow: '#e3c26b',
	blue: '#79b8ff',
	magenta: '#d2a8ff',
	cyan: '#56d4dd',
	white: '#d8dee9',
	brightBlack: '#8b949e',
	brightRed: '#ffa198',
	brightGreen: '#a5f0ac',
	brightYellow: '#f2d88f',
	brightBlue: '#a5d0ff',
	brightMagenta: '#e2c5ff',
	brightCyan: '#8ee6ec',
	brightWhite: '#ffffff'
};

/** The light theme: GitHub-light-like hues, darkened where needed to reach AA on white. */
export const lightTerminalColors: TerminalColors = {
	foreground: '#1f2328',
	background: '#ffffff',
	cursor: '#1f2328',
	cursorAccent: '#ffffff',
	selectionBackground: '#b6d7ff',
	selectionForeground: '#1f2328',
	black: '#24292f',
	red: '#cf222e',
	green: '#116329',
	yellow: '#7d4e00',
	blue: '#0550ae',
	magenta: '#8250df',
	cyan: '#1b7c83',
	// ANSI white is a background colour in practice on a light theme; as text it is lifted.
	white: '#6e7781',
	brightBlack: '#57606a',
	brightRed: '#a40e26',
	brightGreen: '#1a7f37',
	brightYellow: '#633c01',
	brightBlue: '#0969da',
	brightMagenta: '#6639ba',
	brightCyan: '#136061',
	brightWhite: '#57606a'
};

export function terminalColorsFor(scheme: ColorScheme): TerminalColors {
	return scheme === 'light' ? lightTerminalColors : terminalColors;
}

/** System monospace fonts, newest platforms first, ending with the generic family. */
export const terminalFontFamily = [
	'ui-monospace',
	'"SF Mono"',
	'Menlo',
	'Monaco',
	'"Cascadia Mono"',
	'"Segoe UI Mono"',
	'Consolas',
	'"Liberation Mono"',
	'"DejaVu Sans Mono"',
	'"Ubuntu Mono"',
	'"Courier New"',
	'monospace'
].join(', ');

export const terminalFontSize = 14;

/**
 * xterm lifts any foreground colour below this ratio against its cell background, which covers
 * the colours programs pick themselves (e.g. ANSI black or blue on our dark background).
 */
export const terminalMinimumContrastRatio = 4.5;
