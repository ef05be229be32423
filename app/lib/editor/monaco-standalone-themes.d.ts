/** Monaco's built-in theme data (no types are published for this internal module). */
declare module 'monaco-editor/editor/standalone/common/themes.js' {
	interface BuiltInTheme {
		base: 'vs' | 'vs-dark' | 'hc-black' | 'hc-light';
		inherit: boolean;
		rules: { token: string; foreground?: string; background?: string; fontStyle?: string }[];
		colors: Record<string, string>;
	}
	export const vs: BuiltInTheme;
	export const vs_dark: BuiltInTheme;
}
