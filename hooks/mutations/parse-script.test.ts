import { describe, expect, it } from 'vitest';
import { parseScript, type SyntaxNode } from './parse-script.js';

function body(result: ReturnType<typeof parseScript>): SyntaxNode[] {
	if (!result.ok) throw new Error(result.message);
	return result.program.body as SyntaxNode[];
}

describe('parseScript', () => {
	it('parses modules with TypeScript syntax', () => {
		const [statement] = body(
			parseScript('export const f = <T,>(value: T): T => value as T;', { jsx: false })
		);
		expect(statement?.type).toBe('ExportNamedDeclaration');
	});

	it('parses JSX only when asked', () => {
		expect(parseScript('const a = <div>hi</div>;', { jsx: true }).ok).toBe(true);
		expect(parseScript('const a = <div>hi</div>;', { jsx: false }).ok).toBe(false);
		// Without JSX, `<T>value` is a type assertion.
		expect(parseScript('const a = <string>value;', { jsx: false }).ok).toBe(true);
	});

	it('reports a syntax error with a 1-based line and column', () => {
		const result = parseScript('const a = 1;\nconst b = ;\n', { jsx: false });
		expect(result).toMatchObject({ ok: false, line: 2, column: 11 });
		if (!result.ok) expect(result.message).toMatch(/Unexpected token/);
	});

	it('counts CRLF as one line break in error positions', () => {
		expect(parseScript('let a;\r\nlet b;\r\nlet = ;', { jsx: false })).toMatchObject({
			ok: false,
			line: 3
		});
	});

	it('does not compute source locations (they are not needed and cost time)', () => {
		const [statement] = body(parseScript('let a = 1;', { jsx: false }));
		expect(statement?.start).toBe(0);
		expect(statement?.end).toBe(10);
		expect((statement?.loc as { start?: unknown } | undefined)?.start).toBeUndefined();
	});

	it('rejects code that is only valid in a classic script', () => {
		expect(parseScript('with (a) { b; }', { jsx: false }).ok).toBe(false);
	});

	it('parses a long file', () => {
		const line =
			'if (index < limit && value > other) { total = total + compute<number>(index); }\n';
		expect(parseScript(line.repeat(4000), { jsx: false }).ok).toBe(true);
	});
});
