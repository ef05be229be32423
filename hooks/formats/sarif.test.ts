import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { VerifyReport } from '../ledger/verify.js';
import {
	auditSeq,
	blockFindings,
	nonEmptyLineNumbers,
	pathUri,
	sarifLog,
	seqLineIndex,
	traceSeq,
	verifyFindings
} from './sarif.js';

/** The SARIF 2.1.0 schema Microsoft's SARIF Multitool ships (its Linux package, a devDependency). */
const require = createRequire(import.meta.url);
const schema = JSON.parse(
	readFileSync(
		join(
			dirname(require.resolve('@microsoft/sarif-multitool-linux/package.json')),
			'sarif-2.1.0.json'
		),
		'utf8'
	)
) as object;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
const validate = ajv.compile(schema);

const brokenReport: VerifyReport = {
	ok: false,
	audit: {
		events: 9,
		intact: false,
		firstBrokenSeq: 3,
		problem: 'hash does not match its content'
	},
	trace: {
		records: 2,
		intact: false,
		firstBrokenSeq: 2,
		problem: 'prev_hash does not match',
		invalid: [{ seq: 2, line: 2, errors: ['ranges[0].start_line must be >= 1'] }]
	},
	files: {
		checked: 4,
		contentMismatches: ['src/a b#1.ts'],
		unattributed: ['src/é.ts'],
		missing: ['docs/100%.md'],
		rangeMismatches: [{ path: 'src/x.ts', seq: 1 }],
		linkProblems: ['src/link: added (points to ../../etc)'],
		protectedChanges: ['.git/config: changed by seq 4']
	},
	orchestration: {
		checked: ['AGENT.md'],
		problems: ['AGENT.md: differs from what the ledger derives']
	},
	classMismatches: [
		{ seq: 5, path: 'src/x.ts', declared: 'AST_REFACTOR', computed: 'INTENT_EVOLUTION' }
	],
	firstFailure: 'audit.jsonl line 3 (seq 3): hash does not match its content'
};

const auditText = [
	'{"seq":1,"hash":"h1"}',
	'',
	'{"seq":2,"hash":"h2"}',
	'{"seq":3,"hash":"h3"}',
	'{"seq":5}'
].join('\n');
const traceText = [
	'{"metadata":{"dev.threadline":{"seq":1}}}',
	'{"metadata":{"dev.threadline":{"seq":2}}}'
].join('\n');
const lines = {
	audit: seqLineIndex(auditText, auditSeq),
	trace: seqLineIndex(traceText, traceSeq)
};

describe('SARIF', () => {
	it('every verify failure kind is a result with a rule, a path and (where there is one) a line; valid against the official schema', () => {
		const log = sarifLog(
			verifyFindings(brokenReport, lines, { ok: false, firstFailure: 'receipt 4: bad signature' }),
			{
				toolVersion: '0.1.0',
				rules: 'verify'
			}
		);
		expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
		const results =
			(
				log.runs as {
					results: {
						ruleId: string;
						locations: {
							physicalLocation: {
								artifactLocation: { uri: string };
								region?: { startLine: number };
							};
						}[];
					}[];
				}[]
			)[0]?.results ?? [];
		const byRule = new Map(
			results.map((result) => [result.ruleId, result.locations[0]?.physicalLocation])
		);
		expect([...byRule.keys()].sort()).toEqual(
			[
				'audit-chain-broken',
				'trace-chain-broken',
				'trace-record-invalid',
				'file-changed-without-record',
				'file-unattributed',
				'file-missing',
				'range-hash-mismatch',
				'link-changed',
				'protected-change',
				'orchestration-file-mismatch',
				'witness-failed',
				'mutation-class-mismatch'
			].sort()
		);
		// The broken seq 3 is on file line 4 (an empty line before it counts, as an editor numbers lines).
		expect(byRule.get('audit-chain-broken')?.region?.startLine).toBe(4);
		expect(byRule.get('trace-chain-broken')?.region?.startLine).toBe(2);
		expect(byRule.get('file-changed-without-record')?.artifactLocation.uri).toBe(
			'src/a%20b%231.ts'
		);
		expect(byRule.get('file-missing')?.artifactLocation.uri).toBe('docs/100%25.md');
		expect(byRule.get('link-changed')?.artifactLocation.uri).toBe('src/link');
		expect(byRule.get('protected-change')?.artifactLocation.uri).toBe('.git/config');
	});

	it('a malformed log fails the same schema check (the check can fail)', () => {
		const log = sarifLog([], { toolVersion: '0.1.0', rules: 'verify' });
		expect(validate({ ...log, version: '2.0.0' })).toBe(false);
		const run = (log.runs as Record<string, unknown>[])[0] as Record<string, unknown>;
		expect(validate({ ...log, runs: [{ ...run, results: [{ ruleId: 'x', message: {} }] }] })).toBe(
			false
		);
	});

	it('fingerprints are stable across runs and differ between findings', () => {
		const first = JSON.stringify(
			sarifLog(verifyFindings(brokenReport, lines), { toolVersion: '0.1.0', rules: 'verify' })
		);
		const second = JSON.stringify(
			sarifLog(verifyFindings(brokenReport, lines), { toolVersion: '0.2.0', rules: 'verify' })
		);
		const prints = (text: string) =>
			[...text.matchAll(/"threadlineFinding\/v1":"([0-9a-f]{64})"/g)].map((match) => match[1]);
		expect(prints(first)).toEqual(prints(second));
		expect(new Set(prints(first)).size).toBe(prints(first).length);
	});

	it('blocked calls are results under their ToolError code, at their audit line, with the target path', () => {
		const events = [
			{
				seq: 1,
				type: 'tool-call-start',
				tool: 'write_to_file',
				tool_call_id: 'c1',
				input: { path: 'src/db/x.ts' }
			},
			{
				seq: 2,
				type: 'tool-decision',
				tool: 'write_to_file',
				tool_call_id: 'c1',
				decision: 'deny',
				code: 'scope_violation',
				message: 'Scope Violation: INT-001 is not authorized to edit src/db/x.ts.'
			},
			{
				seq: 3,
				type: 'tool-call-finish',
				tool: 'write_to_file',
				tool_call_id: 'c1',
				ok: false,
				code: 'scope_violation',
				hash: 'sha256:aa'
			},
			{
				seq: 4,
				type: 'change-revert',
				tool: 'execute_command',
				tool_call_id: 'c2',
				path: '.git/HEAD',
				code: 'protected_path'
			},
			{ seq: 5, type: 'tool-call-finish', tool: 'read_file', tool_call_id: 'c3', ok: true },
			{
				seq: 6,
				type: 'tool-call-finish',
				tool: 'x',
				tool_call_id: 'c4',
				ok: false,
				code: 'not_a_code'
			}
		];
		const eventLines = nonEmptyLineNumbers(
			events.map((event) => JSON.stringify(event)).join('\n\n')
		);
		const findings = blockFindings(events, eventLines);
		expect(findings.map((finding) => finding.ruleId)).toEqual([
			'scope_violation',
			'protected_path'
		]);
		expect(findings[0]?.location).toEqual({ path: '.orchestration/audit.jsonl', line: 5 });
		expect(findings[0]?.related).toEqual([{ path: 'src/db/x.ts' }]);
		expect(findings[0]?.message).toContain('Scope Violation');
		const log = sarifLog(findings, { toolVersion: '0.1.0', rules: 'report' });
		expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
	});

	it('a problem sentence is located at the export path it starts with, spaces and colons included', () => {
		const report: VerifyReport = {
			...brokenReport,
			files: {
				...brokenReport.files,
				linkProblems: [
					'docs/a b: c.md: a symbolic link (to "../x") the starting snapshot does not have'
				],
				protectedChanges: []
			},
			orchestration: { checked: [], problems: ['notes: v2.md: not recorded in the ledger'] }
		};
		const findings = verifyFindings(report, lines, null, [
			'docs/a b',
			'docs/a b: c.md',
			'notes: v2.md'
		]);
		expect(findings.find((finding) => finding.ruleId === 'link-changed')?.location.path).toBe(
			'docs/a b: c.md'
		);
		expect(
			findings.find((finding) => finding.ruleId === 'orchestration-file-mismatch')?.location.path
		).toBe('.orchestration/notes: v2.md');
		// A path the export no longer has: the text before the first ": ".
		const gone = verifyFindings(report, lines, null, []);
		expect(gone.find((finding) => finding.ruleId === 'link-changed')?.location.path).toBe(
			'docs/a b'
		);
	});

	it('paths become relative URI references', () => {
		expect(pathUri('a b/c#d?e%f/é.ts')).toBe('a%20b/c%23d%3Fe%25f/%C3%A9.ts');
	});
});
