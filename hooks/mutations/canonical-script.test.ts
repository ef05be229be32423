import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalScript } from './canonical-script.js';
import { parseScript } from './parse-script.js';

function canonical(source: string, options = { moduleFile: false, jsx: false }): string[] {
	const parsed = parseScript(source, { jsx: options.jsx });
	if (!parsed.ok) throw new Error(`${parsed.message} at ${parsed.line}:${parsed.column}`);
	return canonicalScript(parsed.program, { moduleFile: options.moduleFile });
}

function sameCode(left: string, right: string, moduleFile = false): boolean {
	const options = { moduleFile, jsx: false };
	return canonical(left, options).join(' ') === canonical(right, options).join(' ');
}

describe('canonicalScript', () => {
	it('is deterministic', () => {
		const source = 'export function f(a) { const b = a + 1; return b; }';
		expect(canonical(source)).toEqual(canonical(source));
	});

	it('writes local references as binding numbers and everything else by name', () => {
		const tokens = canonical('export function f(a) { return a.size + Math.max(a, 1); }');
		expect(tokens).toContain('N:size');
		expect(tokens).toContain('N:max');
		expect(tokens).toContain('G:Math');
		expect(tokens).toContain('f#0');
		expect(tokens.some((token) => /^#\d+$/.test(token))).toBe(true);
		expect(tokens).not.toContain('G:a');
	});

	it('writes type references by name and binding', () => {
		const tokens = canonical('class Box {}\nexport let b: Box = new Box();');
		expect(tokens.filter((token) => token.startsWith('T:Box'))).toEqual(['T:Box#0']);
	});

	it('ignores comments, parentheses and formatting', () => {
		expect(sameCode('let x = (a + b) * c; // hi', 'let x =\n\t(a + b) /* why */ * c')).toBe(true);
		expect(sameCode('let x = (a + b) * c;', 'let x = a + b * c;')).toBe(false);
	});

	it('tells apart statements that differ only by a line break where ASI applies', () => {
		expect(sameCode('function f() { return a; }', 'function f() { return\na; }')).toBe(false);
	});

	it('treats a file extension that implies a module like a module', () => {
		const source = 'function helper() {}\nhelper();';
		const renamed = 'function assist() {}\nassist();';
		expect(sameCode(source, renamed, false)).toBe(false);
		expect(sameCode(source, renamed, true)).toBe(true);
	});

	it('distinguishes a var hoisted out of a block from a block-scoped let', () => {
		expect(
			sameCode(
				'function f() { { var a = 1; } return a; }',
				'function f() { { let a = 1; } return a; }'
			)
		).toBe(false);
	});

	it('keeps exported names, including through export lists', () => {
		expect(sameCode('const a = 1; export { a };', 'const b = 1; export { b };')).toBe(false);
		expect(sameCode('const a = 1; export { a as x };', 'const b = 1; export { b as x };')).toBe(
			false
		);
		expect(sameCode("export { a } from './m';", "export { b as a } from './m';")).toBe(false);
	});

	it('keeps namespace exports but renames namespace locals', () => {
		const before = 'namespace N { const local = 1; export const shown = local; }';
		expect(sameCode(before, before.replaceAll('local', 'hidden'))).toBe(true);
		expect(sameCode(before, before.replace('shown', 'visible'))).toBe(false);
	});

	it('renames consistently renamed locals in any program shape (property)', () => {
		const template = `import { load } from './load.js';
export function run({A}, {B} = {A}) {
	let {C} = load({A});
	for (const {D} of {C}) {
		if ({D} > {B}) {C} = [{D}, ...{C}];
	}
	try { return {C}.map(({E}) => {E} * {B}); } catch ({E}) { return {E}; }
}`;
		const placeholders = ['{A}', '{B}', '{C}', '{D}', '{E}'];
		const fill = (names: string[]) =>
			placeholders.reduce(
				(source, placeholder, index) => source.replaceAll(placeholder, names[index] ?? ''),
				template
			);
		const reference = canonical(fill(['a', 'b', 'c', 'd', 'e']), { moduleFile: false, jsx: false });
		const identifier = fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,6}$/).map((name) => `local_${name}`);
		fc.assert(
			fc.property(fc.uniqueArray(identifier, { minLength: 5, maxLength: 5 }), (names) => {
				expect(canonical(fill(names), { moduleFile: false, jsx: false })).toEqual(reference);
			}),
			{ numRuns: 200 }
		);
	});

	it('notices any single use left behind by a rename (property)', () => {
		const template =
			'export function f(value) { const doubled = value * 2; ' +
			'return [value, doubled, value + doubled]; }';
		const occurrences = [...template.matchAll(/\b(value|doubled)\b/g)].map((match) => match.index);
		const reference = canonical(
			template.replaceAll('value', 'input').replaceAll('doubled', 'twice')
		);
		fc.assert(
			fc.property(fc.integer({ min: 0, max: occurrences.length - 1 }), (skipped) => {
				// Rename every occurrence except one.
				let result = '';
				let last = 0;
				occurrences.forEach((position, index) => {
					if (position === undefined) return;
					const word = template.startsWith('value', position) ? 'value' : 'doubled';
					result += template.slice(last, position);
					result += index === skipped ? word : word === 'value' ? 'input' : 'twice';
					last = position + word.length;
				});
				result += template.slice(last);
				const parsed = parseScript(result, { jsx: false });
				if (!parsed.ok) return;
				expect(canonicalScript(parsed.program, { moduleFile: false })).not.toEqual(reference);
			}),
			{ numRuns: 50 }
		);
	});
});
