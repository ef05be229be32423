import { describe, expect, it } from 'vitest';
import { classifyMutation } from './classify-mutation.js';

function classOf(path: string, before: string, after: string) {
	return classifyMutation(path, before, after).mutationClass;
}

const refactor = 'AST_REFACTOR';
const evolution = 'INTENT_EVOLUTION';

describe('classifyMutation: existence', () => {
	it('treats creating or deleting a file as intent evolution', () => {
		expect(classifyMutation('src/a.ts', null, 'export const a = 1;\n')).toEqual({
			mutationClass: evolution,
			method: 'existence',
			note: 'file created'
		});
		expect(classifyMutation('README.md', '# Title\n', null)).toEqual({
			mutationClass: evolution,
			method: 'existence',
			note: 'file deleted'
		});
		expect(classifyMutation('empty.txt', null, '').mutationClass).toBe(evolution);
	});

	it('reports no change when the file exists neither before nor after', () => {
		expect(classifyMutation('gone.ts', null, null)).toMatchObject({
			mutationClass: refactor,
			method: 'existence'
		});
	});

	it('calls identical content a refactor without parsing it', () => {
		expect(classifyMutation('a.ts', 'this is not ) valid', 'this is not ) valid')).toEqual({
			mutationClass: refactor,
			method: 'ast',
			note: 'content unchanged'
		});
		expect(classifyMutation('a.md', 'x', 'x').method).toBe('text');
	});

	it('rejects arguments of the wrong type', () => {
		expect(() => classifyMutation('a.ts', 1 as unknown as string, 'x')).toThrow(/old content/);
		expect(() => classifyMutation('a.ts', 'x', undefined as unknown as string)).toThrow(
			/new content/
		);
		expect(() => classifyMutation(undefined as unknown as string, 'x', 'y')).toThrow(/path/);
	});
});

describe('classifyMutation: JavaScript and TypeScript', () => {
	const original = `export function total(items) {
	let sum = 0;
	for (const item of items) {
		sum += item.price;
	}
	return sum;
}
`;

	it('uses the syntax tree', () => {
		expect(classifyMutation('src/total.js', original, original.replace('0', '1')).method).toBe(
			'ast'
		);
	});

	it('calls a consistent rename of a local variable a refactor', () => {
		const renamed = original.replaceAll('sum', 'runningTotal');
		expect(classOf('src/total.js', original, renamed)).toBe(refactor);
		expect(classOf('src/total.ts', original, renamed)).toBe(refactor);
	});

	it('calls a rename of a parameter and a loop variable a refactor', () => {
		const renamed = original
			.replaceAll('items', 'lines')
			.replaceAll('item.', 'line.')
			.replace('const item ', 'const line ');
		expect(classOf('src/total.js', original, renamed)).toBe(refactor);
	});

	it('calls an inconsistent rename (one use left behind) intent evolution', () => {
		const renamed = original
			.replace('let sum', 'let runningTotal')
			.replace('sum +=', 'runningTotal +=');
		expect(renamed).toContain('return sum;');
		expect(classOf('src/total.js', original, renamed)).toBe(evolution);
	});

	it('calls renaming an exported function intent evolution', () => {
		expect(classOf('src/total.js', original, original.replace('total(', 'sumPrices('))).toBe(
			evolution
		);
	});

	it('calls renaming a non-exported top-level function of a module a refactor', () => {
		const before = `import { log } from './log.js';
function helper(value) { return value * 2; }
export const doubled = helper(log(2));
`;
		expect(classOf('src/a.js', before, before.replaceAll('helper', 'twice'))).toBe(refactor);
	});

	it('calls changing a string literal, a number or an operator intent evolution', () => {
		const source = `export const greet = (name) => 'Hello, ' + name + '!';\n`;
		expect(classOf('a.ts', source, source.replace('Hello', 'Hi'))).toBe(evolution);
		expect(classOf('a.ts', source, source.replace("+ '!'", "- '!'"))).toBe(evolution);
		expect(classOf('a.ts', 'export const n = 1;', 'export const n = 2;')).toBe(evolution);
		expect(classOf('a.ts', 'export const ok = a < b;', 'export const ok = a <= b;')).toBe(
			evolution
		);
	});

	it('calls reformatting and adding comments a refactor', () => {
		const reformatted = `/** Adds up the prices. */
export function total (items)
{
  // start from zero
  let sum = 0
  for (const item of items) {
    sum += (item.price)
  }
  return sum /* done */
}`;
		expect(classOf('src/total.js', original, reformatted)).toBe(refactor);
	});

	it('ignores the spelling of literals: quotes, escapes, number forms', () => {
		expect(classOf('a.js', `export const s = 'a"b';`, `export const s = "a\\"b";`)).toBe(refactor);
		expect(classOf('a.js', 'export const n = 255;', 'export const n = 0xff;')).toBe(refactor);
		expect(classOf('a.js', 'export const n = 1000n;', 'export const n = 1_000n;')).toBe(refactor);
		expect(classOf('a.js', 'export const n = 1n;', 'export const n = 2n;')).toBe(evolution);
		expect(classOf('a.js', 'export const r = /a/g;', 'export const r = /a/i;')).toBe(evolution);
		expect(classOf('a.js', 'export const r = /a/g;', 'export const r = /b/g;')).toBe(evolution);
	});

	it('treats template text as significant', () => {
		expect(classOf('a.js', 'export const t = `a${x}b`;', 'export const t = `a${x}c`;')).toBe(
			evolution
		);
		expect(classOf('a.js', 'export const t = `a${x}b`;', 'export const t = `a${ x }b`;')).toBe(
			refactor
		);
	});

	it('treats TypeScript type annotation changes as intent evolution', () => {
		const source = 'export function id(value: string): string { return value; }\n';
		expect(classOf('a.ts', source, source.replace('value: string', 'value: number'))).toBe(
			evolution
		);
		expect(classOf('a.ts', source, source.replace('): string', '): unknown'))).toBe(evolution);
		expect(classOf('a.ts', source, source.replace('value: string', 'value'))).toBe(evolution);
		expect(classOf('a.ts', 'type A = { x: number };', 'type A = { y: number };')).toBe(evolution);
		expect(classOf('a.ts', 'let a = b as Foo;', 'let a = b as Bar;')).toBe(evolution);
	});

	it('still renames locals inside typed code', () => {
		const before =
			'export function f(input: number[]): number { const n: number = input.length; return n; }';
		const after =
			'export function f(values: number[]): number { ' +
			'const count: number = values.length; return count; }';
		expect(classOf('a.ts', before, after)).toBe(refactor);
	});

	it('keeps type names: renaming a type or a class used as a type is a contract change', () => {
		const before =
			'interface User { name: string }\nexport function f(user: User) { return user.name; }';
		expect(classOf('a.ts', before, before.replaceAll('User', 'Person'))).toBe(evolution);
	});

	it('does not confuse two swapped local bindings with a rename', () => {
		const before = 'export function f() { let a = 1; let b = 2; return a - b; }';
		const swappedUse = 'export function f() { let a = 1; let b = 2; return b - a; }';
		const swappedNames = 'export function f() { let b = 1; let a = 2; return b - a; }';
		expect(classOf('a.js', before, swappedUse)).toBe(evolution);
		expect(classOf('a.js', before, swappedNames)).toBe(refactor);
	});

	it('notices a rename that captures a global', () => {
		const before = 'export function f(list) { const size = 2; return list.length + length; }';
		// Renaming `size` to `length` makes the last `length` refer to the local, not the global.
		const after = 'export function f(list) { const length = 2; return list.length + length; }';
		expect(classOf('a.js', before, after)).toBe(evolution);
	});

	it('notices a rename that changes which binding a shadowed name refers to', () => {
		const before = 'export function f(x) { { let y = 1; return x + y; } }';
		const after = 'export function f(x) { { let x = 1; return x + x; } }';
		expect(classOf('a.js', before, after)).toBe(evolution);
	});

	it('keeps default parameters and the body in separate scopes', () => {
		const before = 'export function f(a = value) { var value = 1; return a + value; }';
		const after = 'export function f(a = other) { var other = 1; return a + other; }';
		expect(classOf('a.js', before, after)).toBe(evolution);
	});

	it('does not rename object keys, member names or imported names', () => {
		expect(classOf('a.js', 'export const o = { a: 1 };', 'export const o = { b: 1 };')).toBe(
			evolution
		);
		expect(classOf('a.js', 'export const v = o.a;', 'export const v = o.b;')).toBe(evolution);
		expect(classOf('a.js', "import { a } from 'm'; a();", "import { b } from 'm'; b();")).toBe(
			evolution
		);
		// Renaming the local side of an import is fine.
		expect(classOf('a.js', "import { a } from 'm'; a();", "import { a as b } from 'm'; b();")).toBe(
			refactor
		);
	});

	it('keeps shorthand properties honest', () => {
		const before = 'export function f() { const name = 1; return { name }; }';
		const renamedLocal = 'export function f() { const label = 1; return { name: label }; }';
		const renamedKey = 'export function f() { const label = 1; return { label }; }';
		expect(classOf('a.js', before, renamedLocal)).toBe(refactor);
		expect(classOf('a.js', before, renamedKey)).toBe(evolution);
	});

	it('does not rename globals that the file does not declare', () => {
		expect(classOf('a.js', 'export const t = Date.now();', 'export const t = Dates.now();')).toBe(
			evolution
		);
	});

	it('keeps the top-level names of a classic script (they are globals)', () => {
		const before = 'function handleClick() { count++; }\nvar count = 0;\n';
		expect(classOf('script.js', before, before.replaceAll('count', 'clicks'))).toBe(evolution);
		const local = 'function handleClick() { let step = 1; return step; }';
		expect(classOf('script.js', local, local.replaceAll('step', 'delta'))).toBe(refactor);
		// CommonJS has module-local top-level names.
		const common = 'const helper = require("x");\nmodule.exports = helper;\n';
		expect(classOf('lib.js', common, common.replaceAll('helper', 'dependency'))).toBe(refactor);
	});

	it('keeps local names in a file that calls eval', () => {
		const before = 'export function f() { const secret = 1; return eval("secret"); }';
		expect(classOf('a.js', before, before.replace('const secret', 'const hidden'))).toBe(evolution);
	});

	it('renames catch parameters, local functions and class expressions', () => {
		const before = `export function run(task) {
	function attempt(times) { try { return task(times); } catch (error) { return error; } }
	const Runner = class Inner { go() { return Inner; } };
	return attempt(3) ?? new Runner();
}`;
		const after = before
			.replaceAll('attempt', 'tryIt')
			.replaceAll('times', 'count')
			.replaceAll('error', 'failure')
			.replaceAll('Inner', 'Self')
			.replaceAll('Runner', 'Worker');
		expect(classOf('a.js', before, after)).toBe(refactor);
	});

	it('keeps the name of a constructor parameter property', () => {
		const before = 'export class A { constructor(private value: number) {} }';
		expect(classOf('a.ts', before, before.replace('value', 'amount'))).toBe(evolution);
		const plain = 'export class A { constructor(value: number) { this.v = value; } }';
		expect(classOf('a.ts', plain, plain.replaceAll('value', 'amount'))).toBe(refactor);
	});

	it('treats JSX markup and text as significant but not its layout', () => {
		const before = 'export const App = () => <div className="a"><b>Hi</b></div>;';
		const relaid = `export const App = () => (
	<div className="a">
		<b>Hi</b>
	</div>
);`;
		expect(classOf('App.jsx', before, relaid)).toBe(refactor);
		expect(classOf('App.jsx', before, before.replace('Hi', 'Hello'))).toBe(evolution);
		expect(classOf('App.tsx', before, before.replace('className="a"', 'className="b"'))).toBe(
			evolution
		);
		expect(
			classOf('App.tsx', before, before.replaceAll('<b>', '<i>').replace('</b>', '</i>'))
		).toBe(evolution);
	});

	it('resolves JSX component names as references', () => {
		const before = "import Button from './Button'; export const A = () => <Button />;";
		const after = "import Knob from './Button'; export const A = () => <Knob />;";
		expect(classOf('A.tsx', before, after)).toBe(refactor);
	});

	it('parses TypeScript-only syntax', () => {
		const before = `enum Color { Red = 1, Green = Red + 1 }
export abstract class Shape<T extends object> implements HasArea {
	abstract area(): number;
	describe(this: Shape<T>, prefix?: string): string { return (prefix ?? '') + this.area()!; }
}
export type Pair = [Color, Color];
declare const injected: string;
export default function make(x: unknown) { return x satisfies unknown; }
`;
		const result = classifyMutation(
			'shape.ts',
			before,
			before.replace('prefix', 'label').replace('prefix ??', 'label ??')
		);
		expect(result.method).toBe('ast');
		expect(result.mutationClass).toBe(refactor);
		expect(classOf('shape.ts', before, before.replace('Green = Red + 1', 'Green = Red + 2'))).toBe(
			evolution
		);
		expect(
			classOf('shape.ts', before, before.replace('declare const injected', 'declare const other'))
		).toBe(evolution);
	});

	it('treats a changed #! line as intent evolution', () => {
		const before = '#!/usr/bin/env node\nconsole.log(1);\n';
		expect(classOf('bin/a.js', before, before.replace('node', 'deno'))).toBe(evolution);
	});

	it('falls back to the text rule when a side does not parse, and says why', () => {
		const broken = 'export function f( {\n\treturn 1;\n}\n';
		const commented = 'export function f( {\n\t// note\n\treturn 1;\n}\n';
		const result = classifyMutation('a.ts', broken, commented);
		expect(result.method).toBe('text');
		expect(result.mutationClass).toBe(refactor);
		expect(result.note).toMatch(
			/old version does not parse \(.+ at 2:2\) and the new version does not parse \(.+ at 3:2\) as TypeScript$/
		);
		const fixed = classifyMutation('a.ts', broken, 'export function f() {\n\treturn 1;\n}\n');
		expect(fixed.mutationClass).toBe(evolution);
		expect(fixed.note).toMatch(/old version does not parse/);
		expect(fixed.note).not.toMatch(/new version/);
	});

	it('classifies a 2,000-line file quickly', () => {
		const chunk = (
			index: number
		) => `export function compute${index}(input: number[], factor = 2): number {
	const results: number[] = [];
	for (let position = 0; position < input.length; position++) {
		const value = input[position] ?? 0; // note
		if (value > factor) { results.push(value * factor); } else { results.push(value); }
	}
	return results.reduce((sum, item) => sum + item, 0);
}
`;
		const before = Array.from({ length: 250 }, (_, index) => chunk(index)).join('');
		const after = before
			.replace('const value = input[position] ?? 0;', 'const current = input[position] ?? 0;')
			.replace(
				'if (value > factor) { results.push(value * factor); } else { results.push(value); }',
				'if (current > factor) { results.push(current * factor); } else { results.push(current); }'
			);
		expect(before.split('\n').length).toBeGreaterThanOrEqual(2000);
		expect(classOf('big.ts', before, after)).toBe(refactor);
	});
});

describe('classifyMutation: other files', () => {
	it('calls whitespace-only changes in a Python file a refactor', () => {
		const before = 'def area(width, height):\n    return width * height\n\n\nprint(area(2, 3))\n';
		const after = 'def area(width,height):\n  return width*height   \n\nprint( area(2, 3) )\n';
		expect(classifyMutation('area.py', before, after)).toEqual({
			mutationClass: refactor,
			method: 'text'
		});
	});

	it('notices Python indentation that moves a line into another block', () => {
		const before = 'if ready:\n    start()\nfinish()\n';
		const after = 'if ready:\n    start()\n    finish()\n';
		expect(classOf('run.py', before, after)).toBe(evolution);
	});

	it('ignores Python comments but not strings that contain #', () => {
		const before = 'x = "a # b"  # explain\n';
		expect(classOf('a.py', before, 'x = "a # b"  # explain better\n')).toBe(refactor);
		expect(classOf('a.py', before, 'x = "a # c"  # explain\n')).toBe(evolution);
		expect(
			classOf('a.py', 'def f():\n    """Doc # one"""\n', 'def f():\n    """Doc # two"""\n')
		).toBe(evolution);
	});

	it('calls a README wording change intent evolution', () => {
		const before = '# Project\n\nRun `npm start` to begin.\n';
		expect(classOf('README.md', before, before.replace('begin', 'start the server'))).toBe(
			evolution
		);
		expect(classOf('README.md', before, before.replace('Run', 'Run  ') + '\n<!-- todo -->\n')).toBe(
			refactor
		);
	});

	it('uses # comments for YAML and shell, and keeps YAML nesting', () => {
		const yaml = 'server:\n  port: 80 # http\n';
		expect(classOf('config.yaml', yaml, 'server:\n    port: 80\n')).toBe(refactor);
		expect(classOf('config.yml', yaml, 'server:\nport: 80\n')).toBe(evolution);
		expect(classOf('config.yml', yaml, 'server:\n  port: 81\n')).toBe(evolution);
		expect(classOf('run.sh', 'echo $# # count\n', 'echo $#\n')).toBe(refactor);
		expect(classOf('run.sh', 'rm -rf /tmp/x\n', 'rm -rf / tmp/x\n')).toBe(evolution);
	});

	it('uses // and /* */ for C-like languages and only /* */ for CSS', () => {
		expect(classOf('Main.java', 'int a = 1; // one\n', 'int a = 1; /* one */\n')).toBe(refactor);
		expect(classOf('main.go', 'x := 1 // one\n', 'x := 2 // one\n')).toBe(evolution);
		expect(classOf('site.css', 'a { color: red; } /* x */', 'a {\n  color: red;\n}\n')).toBe(
			refactor
		);
		expect(classOf('site.css', '.a .b { color: red; }', '.a.b { color: red; }')).toBe(evolution);
		expect(
			classOf(
				'site.css',
				'a { background: url(http://x/y); }',
				'a { background: url(http://x/z); }'
			)
		).toBe(evolution);
	});

	it('compares JSON without whitespace and without comment syntax', () => {
		expect(classOf('package.json', '{"a": [1, 2]}', '{\n  "a": [\n    1,\n    2\n  ]\n}\n')).toBe(
			refactor
		);
		expect(classOf('package.json', '{"a": "x y"}', '{"a": "x  y"}')).toBe(evolution);
		expect(classOf('data.json', '{"a": "//x"}', '{"a": "//y"}')).toBe(evolution);
	});

	it('uses HTML comments for markup files', () => {
		expect(classOf('index.html', '<p>Hi</p>', '<!-- greeting -->\n<p>Hi</p>')).toBe(refactor);
		expect(classOf('App.svelte', '<p>Hi</p>', '<p>Hello</p>')).toBe(evolution);
	});

	it('compares only whitespace for unknown file types', () => {
		expect(classOf('notes.txt', 'a  b\n', 'a b\n\n')).toBe(refactor);
		expect(classOf('notes.txt', 'a b # c\n', 'a b\n')).toBe(evolution);
		expect(classOf('notes.txt', 'a b\n', 'ab\n')).toBe(evolution);
	});
});
