import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentColorScheme, monacoThemeFor, watchColorScheme } from './color-scheme';
import { monacoThemeNames } from './monaco-themes';

/** A MediaQueryList whose `matches` the test flips, dispatching `change` like a browser does. */
function fakeMediaQuery(initiallyLight: boolean) {
	const target = new EventTarget();
	const query = Object.assign(target, {
		matches: initiallyLight,
		media: '(prefers-color-scheme: light)',
		flip(light: boolean) {
			query.matches = light;
			target.dispatchEvent(Object.assign(new Event('change'), { matches: light }));
		}
	});
	return query;
}

afterEach(() => vi.unstubAllGlobals());

describe('color scheme', () => {
	it('is dark without matchMedia (server rendering)', () => {
		vi.stubGlobal('matchMedia', undefined);
		expect(currentColorScheme()).toBe('dark');
		expect(watchColorScheme(() => expect.unreachable())).toBeTypeOf('function');
	});

	it('follows the system and reports changes until unsubscribed', () => {
		const query = fakeMediaQuery(true);
		vi.stubGlobal('matchMedia', (text: string) => {
			expect(text).toBe('(prefers-color-scheme: light)');
			return query;
		});
		expect(currentColorScheme()).toBe('light');
		const seen: string[] = [];
		const stop = watchColorScheme((scheme) => seen.push(scheme));
		query.flip(false);
		query.flip(true);
		stop();
		query.flip(false);
		expect(seen).toEqual(['dark', 'light']);
	});

	it('maps to Monaco built-in themes', () => {
		expect(monacoThemeFor('light')).toBe(monacoThemeNames.light);
		expect(monacoThemeFor('dark')).toBe(monacoThemeNames.dark);
	});
});
