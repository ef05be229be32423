import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { composite, contrastRatio, parseHexColor } from './contrast.js';

/**
 * The page's two palettes (app.css) keep their AA promise, and no component refers to a colour
 * variable the palettes do not define (a `var(--danger, #e5534b)` fallback silently painted the
 * author dialog's errors at 3.7:1 in the light theme).
 */
const appDirectory = join(import.meta.dirname, '..', '..');
const css = readFileSync(join(appDirectory, 'app.css'), 'utf8');

function palette(block: string): Map<string, string> {
	return new Map(
		[...block.matchAll(/--([a-z0-9-]+):\s*([^;]+);/g)].map((match) => [
			match[1] as string,
			(match[2] as string).trim()
		])
	);
}

const dark = palette(css.slice(0, css.indexOf('@media (prefers-color-scheme: light)')));
const lightOnly = palette(css.slice(css.indexOf('@media (prefers-color-scheme: light)')));
const light = new Map([...dark, ...lightOnly]);

function color(value: string): ReturnType<typeof parseHexColor> {
	const rgb = /^rgb\((\d+) (\d+) (\d+) \/ ([\d.]+)\)$/.exec(value);
	if (rgb)
		return {
			red: Number(rgb[1]),
			green: Number(rgb[2]),
			blue: Number(rgb[3]),
			alpha: Number(rgb[4])
		};
	return parseHexColor(value);
}

/** Text colours and the surfaces each is drawn on. */
const pairs: [string, string[]][] = [
	['text', ['surface', 'surface-2', 'hover', 'selected', 'added-bg', 'removed-bg']],
	['muted', ['surface', 'surface-2', 'hover']],
	['accent', ['surface', 'surface-2']],
	['surface', ['accent']],
	['warning-fg', ['warning-bg']],
	['danger-fg', ['danger-bg', 'surface', 'surface-2']],
	['change-new', ['surface', 'surface-2']],
	['change-modified', ['surface', 'surface-2']],
	['change-deleted', ['surface', 'surface-2']],
	['success', ['surface', 'surface-2']],
	['terminal-foreground', ['terminal-background']],
	['terminal-error', ['terminal-background']]
];

describe('app.css palettes', () => {
	for (const [name, scheme] of [
		['dark', dark],
		['light', light]
	] as const) {
		it(`${name}: every text colour reaches 4.5:1 on the surfaces it is used on`, () => {
			const surface = color(scheme.get('surface') as string);
			const failures: string[] = [];
			for (const [text, backgrounds] of pairs) {
				for (const background of backgrounds) {
					// Translucent backgrounds (diff lines) are laid over the page's surface.
					const behind = composite(color(scheme.get(background) as string), surface);
					const ratio = contrastRatio(color(scheme.get(text) as string), behind);
					if (ratio < 4.5) failures.push(`${text} on ${background}: ${ratio.toFixed(2)}`);
				}
			}
			expect(failures).toEqual([]);
		});
	}

	it('no component uses a colour variable the palettes do not define', () => {
		const used = new Set<string>();
		const visit = (folder: string) => {
			for (const entry of readdirSync(folder)) {
				const path = join(folder, entry);
				if (statSync(path).isDirectory()) visit(path);
				else if (/\.(svelte|css)$/.test(entry))
					for (const match of readFileSync(path, 'utf8').matchAll(/var\(--([a-z0-9-]+)/g))
						used.add(match[1] as string);
			}
		};
		visit(appDirectory);
		const locallyDefined = new Set<string>();
		const collect = (folder: string) => {
			for (const entry of readdirSync(folder)) {
				const path = join(folder, entry);
				if (statSync(path).isDirectory()) collect(path);
				else if (entry.endsWith('.svelte'))
					for (const match of readFileSync(path, 'utf8').matchAll(/(?:^|[\s;{])--([a-z0-9-]+):/g))
						locallyDefined.add(match[1] as string);
			}
		};
		collect(appDirectory);
		const undefinedNames = [...used].filter((name) => !dark.has(name) && !locallyDefined.has(name));
		expect(undefinedNames).toEqual([]);
	});
});
