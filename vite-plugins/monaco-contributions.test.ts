import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	isMonacoWorkersModule,
	monacoContributionsFromEntryOnly,
	withoutSideEffectImports
} from './monaco-contributions.js';

const workersPath = join(
	dirname(dirname(createRequire(import.meta.url).resolve('monaco-editor/editor/editor.api.js'))),
	'internal/common/workers.js'
);
const workersCode = readFileSync(workersPath, 'utf8');

describe('monaco-contributions plugin', () => {
	it("finds Monaco's workers.js by its resolved path, and nothing else", () => {
		expect(isMonacoWorkersModule(workersPath)).toBe(true);
		expect(isMonacoWorkersModule(`${workersPath}?v=1`)).toBe(true);
		expect(
			isMonacoWorkersModule(
				'C:\\p\\node_modules\\monaco-editor\\esm\\vs\\internal\\common\\workers.js'
			)
		).toBe(true);
		expect(isMonacoWorkersModule(workersPath.replace('workers.js', 'workers.jsx'))).toBe(false);
		expect(isMonacoWorkersModule('/app/lib/editor/internal/common/workers.js')).toBe(false);
	});

	it("removes the real workers.js's contribution imports and keeps its code", () => {
		// The premise: this Monaco's workers.js imports contributions the IDE leaves out.
		expect(workersCode).toContain(
			"import '../../editor/contrib/stickyScroll/browser/stickyScrollContribution.js';"
		);
		const stripped = withoutSideEffectImports(workersCode);
		expect(stripped).not.toMatch(/^import '/m);
		expect(stripped).toContain("import { editor } from '../../editor/editor.api.js';");
		expect(stripped).toContain('export { createWebWorker }');
		// Only import lines went: the rest is unchanged, line for line.
		const kept = workersCode.split('\n').filter((line) => !/^import '[^']+';\s*$/.test(line));
		expect(stripped.split('\n')).toEqual(kept);
	});

	it('leaves every other module alone', () => {
		const plugin = monacoContributionsFromEntryOnly();
		const transform = plugin.transform as (code: string, id: string) => unknown;
		expect(transform.call({}, "import './x.js';\n", '/p/app/lib/editor/x.ts')).toBeNull();
		expect(transform.call({}, workersCode, workersPath)).toEqual({
			code: withoutSideEffectImports(workersCode),
			map: null
		});
	});
});
