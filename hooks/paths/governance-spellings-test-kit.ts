/**
 * Spellings of the governance names that a case-insensitive or confusable-blind reader takes for
 * the real ones (tests only): each character may be swapped for its upper case, a full-width or
 * mathematical form, a look-alike letter of another script (`ſ`, `ı`, `İ`, Cyrillic, Greek), and
 * followed by an invisible character or a combining mark; the name may end with dots and spaces.
 * A test picks the choices (fast-check's integers), so a failure shrinks to one spelling.
 */
import type { GovernancePathKind } from './protected-paths.js';

export const governanceNames: Record<GovernancePathKind, string> = {
	orchestration: '.orchestration',
	git: '.git',
	intentignore: '.intentignore'
};

const dotForms = ['.', '\uff0e', '\u2024', '\ufe52'];

const lookAlikes: Record<string, string[]> = {
	a: ['\u0430', '\u0251', '\u03b1'],
	c: ['\u0441', '\u03f2', '\u1d04'],
	e: ['\u0435', '\u04bd'],
	g: ['\u0261', '\u0581'],
	h: ['\u04bb', '\u0570'],
	i: ['\u0131', '\u0130', '\u0456', '\u03b9', 'i\u0307'],
	n: ['\u0578'],
	o: ['\u043e', '\u03bf', '\u0585'],
	r: ['\u0433'],
	s: ['\u017f', '\u0455', '\ua731'],
	t: ['t']
};

const invisible = ['', '', '', '\u200b', '\u200c', '\u200d', '\ufeff', '\u00ad', '\u2060'];
const trailing = ['', '', '.', ' ', '. ', '..', '\u3000', '\u00a0'];

/** Every form of one character; `choice` picks one (modulo their number). */
export function characterForms(character: string): string[] {
	if (character === '.') return dotForms;
	const code = character.charCodeAt(0);
	const upper = character.toUpperCase();
	return [
		character,
		upper,
		String.fromCodePoint(0xff41 + code - 0x61), // full-width small letter
		String.fromCodePoint(0xff21 + code - 0x61), // full-width capital letter
		String.fromCodePoint(0x1d41a + code - 0x61), // mathematical bold small letter
		...(lookAlikes[character] ?? [])
	];
}

/** One spelling of `name`: for each character a form and an invisible follower, then an ending. */
export function spellingOf(name: string, choices: readonly number[]): string {
	let spelled = '';
	let index = 0;
	const next = () => choices[index++ % Math.max(choices.length, 1)] ?? 0;
	for (const character of name) {
		const forms = characterForms(character);
		spelled += forms[next() % forms.length];
		spelled += invisible[next() % invisible.length];
	}
	return spelled + trailing[next() % trailing.length];
}

/** Paths at or below the governance name, as tools and commands name them. */
export const belowGovernanceName = ['', '/active_intents.yaml', '/HEAD', '/deep/file.ts'];
