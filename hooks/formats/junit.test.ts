import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import type { IntentCheck } from '../intents/check-criteria.js';
import { criteriaJunit } from './junit.js';

/** The JUnit schema of Jenkins' xUnit plugin (vendored with credit in schemas/README.md). */
const junitSchema = readFileSync(new URL('./schemas/junit-10.xsd', import.meta.url), 'utf8');

async function validate(xml: string) {
	return validateXML({
		xml: [{ fileName: 'report.xml', contents: xml }],
		schema: [{ fileName: 'junit-10.xsd', contents: junitSchema }]
	});
}

const hostileOutput =
	'</failure><testcase name="forged"/> ]]> & "quoted" \u0000\u0001\u001b[31mred\u001b[0m \uD800 lone \uD83D\uDE00 ok\r\nlast';

const checks: IntentCheck[] = [
	{
		intent_id: 'INT-001',
		name: 'Auth <"&> migration',
		status: 'IN_PROGRESS',
		passed: false,
		criteria: [
			{
				description: 'tests pass',
				run: 'npm test',
				outcome: 'passed',
				exit_code: 0,
				output: 'ok\n'
			},
			{
				description: 'lint & types',
				run: 'npm run "lint"',
				outcome: 'failed',
				exit_code: 2,
				output: `${Array.from({ length: 100 }, (_, index) => `line ${index}`).join('\n')}\n${hostileOutput}`
			},
			{ description: 'Reviewed by a person', outcome: 'manual' },
			{
				description: 'slow',
				run: 'sleep 999',
				outcome: 'not-run',
				output: 'not run: the deadline passed before it could start'
			}
		]
	},
	{ intent_id: 'INT-002', name: 'Nothing', status: 'DRAFT', passed: false, criteria: [] }
];

describe('criteriaJunit', () => {
	it('is valid against the JUnit XSD, output with control characters and markup included', async () => {
		const xml = criteriaJunit(checks);
		const result = await validate(xml);
		expect(result.errors).toEqual([]);
		expect(result.valid).toBe(true);
	});

	it('has one testcase per criterion: failure with the output tail, skipped for manual, error for not run', () => {
		const xml = criteriaJunit(checks);
		expect(xml.match(/<testcase /g)).toHaveLength(4);
		expect(xml).toContain('tests="4" failures="1" errors="1"');
		expect(xml).toMatch(/<failure type="exit 2"[^>]*>\$ npm run "lint"\n(line \d+\n)+/);
		// The tail only: the first lines of a long output are left out.
		expect(xml).not.toContain('line 0\n');
		expect(xml).toContain('line 99');
		expect(xml).toMatch(/<testcase name="3\. Reviewed by a person"[^>]*>\s*<skipped /);
		expect(xml).toMatch(/<error type="not-run"/);
		// The output cannot close the element or forge a testcase.
		expect(xml).not.toContain('<testcase name="forged"/>');
		expect(xml).toContain('&lt;/failure&gt;');
	});

	it('a schema-invalid document is refused by the same validator (the check can fail)', async () => {
		const broken = criteriaJunit(checks).replace(/<testcase name="1\. tests pass"/, '<testcase');
		expect((await validate(broken)).valid).toBe(false);
		const unescaped = criteriaJunit(checks).replace('&lt;/failure&gt;', '</failure>');
		expect((await validate(unescaped)).valid).toBe(false);
	});
});
