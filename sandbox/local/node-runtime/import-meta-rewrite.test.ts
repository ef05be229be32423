import { describe, expect, it } from 'vitest';
import { rewriteImportMeta } from './import-meta-rewrite.js';

const rewrite = (code: string) => rewriteImportMeta(code, 'META');

describe('rewriteImportMeta', () => {
	it('replaces import.meta expressions in code', () => {
		expect(rewrite('const url = import.meta.url;')).toBe('const url = META.url;');
		expect(rewrite('f(import.meta)')).toBe('f(META)');
		expect(rewrite('x = import . meta.dirname')).toBe('x = META.dirname');
	});

	it('leaves import.meta inside strings, template text, comments and regexes alone', () => {
		for (const code of [
			'console.log("import.meta.url")',
			"console.log('import.meta.url')",
			'console.log(`import.meta.url`)',
			'// import.meta.url\n',
			'/* import.meta.url */',
			'const pattern = /import.meta/;',
			'const pattern = (/import\\.meta\\/x/g);',
			'"escaped \\" import.meta"',
			'`${"x"} import.meta ${1} import.meta`'
		]) {
			expect(rewrite(code)).toBe(code);
		}
	});

	it('rewrites import.meta inside template expressions, nested ones included', () => {
		expect(rewrite('`at ${import.meta.url} and import.meta`')).toBe(
			'`at ${META.url} and import.meta`'
		);
		expect(rewrite('`a ${`b ${import.meta.dirname} import.meta`} import.meta`')).toBe(
			'`a ${`b ${META.dirname} import.meta`} import.meta`'
		);
		expect(rewrite('`${ {a: 1}.a } import.meta ${import.meta}`')).toBe(
			'`${ {a: 1}.a } import.meta ${META}`'
		);
	});

	it('tells division from a regex literal', () => {
		expect(rewrite('const half = size / 2; const u = import.meta.url; const q = 4 / 2;')).toBe(
			'const half = size / 2; const u = META.url; const q = 4 / 2;'
		);
		expect(rewrite('const r = a[1] / 2 / import.meta.x')).toBe('const r = a[1] / 2 / META.x');
		expect(rewrite('return /import.meta/.test(s) && import.meta')).toBe(
			'return /import.meta/.test(s) && META'
		);
	});

	it('leaves property names and other identifiers alone, and keeps line numbers', () => {
		expect(rewrite('obj.import.meta; myimport.meta; import.metadata; import.meta')).toBe(
			'obj.import.meta; myimport.meta; import.metadata; META'
		);
		expect(rewrite('import\n.meta.url\nline3').split('\n')).toHaveLength(3);
	});
});
