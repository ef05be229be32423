/**
 * The colour scheme the person's system asks for (`prefers-color-scheme`), for the parts of the
 * page that CSS cannot reach: Monaco's and xterm's themes are JavaScript options. The page's own
 * colours follow the same media query in `app.css`, so everything switches together, live.
 */

export type ColorScheme = 'light' | 'dark';

/** Dark is the default: it is what the IDE was designed in and what a browser without the query gets. */
const lightQuery = '(prefers-color-scheme: light)';

function mediaQuery(): MediaQueryList | null {
	return typeof matchMedia === 'function' ? matchMedia(lightQuery) : null;
}

export function currentColorScheme(): ColorScheme {
	return mediaQuery()?.matches ? 'light' : 'dark';
}

/**
 * Calls `listener` whenever the system's scheme changes (not now). Returns the unsubscribe
 * function; without `matchMedia` (server rendering, old tests) it never calls.
 */
export function watchColorScheme(listener: (scheme: ColorScheme) => void): () => void {
	const query = mediaQuery();
	if (query === null) return () => {};
	const onChange = (event: MediaQueryListEvent): void => listener(event.matches ? 'light' : 'dark');
	query.addEventListener('change', onChange);
	return () => query.removeEventListener('change', onChange);
}

/**
 * Monaco's theme for the scheme: Threadline's AA versions of Monaco's `vs` and `vs-dark`
 * (monaco-themes.ts), defined by the loader before any editor exists.
 */
export function monacoThemeFor(scheme: ColorScheme): 'threadline-light' | 'threadline-dark' {
	return scheme === 'light' ? 'threadline-light' : 'threadline-dark';
}
