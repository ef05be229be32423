import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import agentTraceSchema from '../../hooks/ledger/agent-trace-0.1.0.schema.json' with { type: 'json' };
import { zipEntries } from '../../hooks/ledger/read-export.js';
import { captureOutput } from './capture-output.js';
import { main } from './main.js';
import { readFolderEntries } from './read-export-source.js';

const fixtures = join(import.meta.dirname, '..', 'fixtures');
const run = promisify(execFile);

let workspace: string;

beforeEach(async () => {
	workspace = await mkdtemp(join(tmpdir(), 'threadline-trp1-'));
	await cp(join(fixtures, 'trp1-workspace'), workspace, { recursive: true });
});

afterEach(async () => {
	await rm(workspace, { recursive: true, force: true });
});

async function replayDemo() {
	const streams = captureOutput();
	const code = await main(
		['replay', join(fixtures, 'trp1-demo.yaml'), '--workspace', workspace],
		streams.output
	);
	return { code, lines: streams.out.map((line) => JSON.parse(line)), err: streams.err };
}

describe('threadline replay → verify → report: the TRP1 demo', () => {
	it('runs every governance behaviour once, with the expected result per step', async () => {
		const { code, lines, err } = await replayDemo();
		expect(err.filter((line) => line.startsWith('step '))).toEqual([]);
		expect(code).toBe(0);
		const results = lines.map(
			(line) => `${line.step}:${line.session}:${line.tool}:${line.ok ? 'ok' : line.error.code}`
		);
		expect(results).toEqual([
			'2:builder:write_to_file:intent_required',
			'3:builder:select_active_intent:ok',
			'4:architect:select_active_intent:intent_locked',
			'5:architect:select_active_intent:ok',
			'6:builder:write_to_file:ok',
			'7:builder:write_to_file:scope_violation',
			'8:builder:read_file:ok',
			'10:builder:apply_diff:stale_file',
			'11:builder:read_file:ok',
			'12:builder:apply_diff:ok',
			'13:builder:execute_command:scope_violation',
			'14:builder:execute_command:user_rejected',
			'15:architect:read_file:ok',
			'16:architect:apply_diff:ok',
			'17:builder:write_to_file:protected_path',
			'18:builder:execute_command:command_failed',
			'19:builder:record_lesson:ok',
			'20:builder:complete_intent:ok'
		]);
		expect(lines[1].output).toContain('<intent_context>');
		// The shell wrote into both folders: the in-scope file stays, the other was reverted.
		expect(await readFile(join(workspace, 'src/auth/notes.txt'), 'utf8')).toBe('generated\n');
		await expect(readFile(join(workspace, 'src/db/notes.txt'))).rejects.toThrow();
		const intents = await readFile(join(workspace, '.orchestration/active_intents.yaml'), 'utf8');
		expect(intents).toContain('# TRP1 classic');
		expect(intents).toMatch(/id: INT-001[\s\S]*status: COMPLETED/);
		const agentNotes = await readFile(join(workspace, '.orchestration/AGENT.md'), 'utf8');
		expect(agentNotes).toContain('Agents: read this before you start.');
		expect(agentNotes).toContain('Read a file again after a human edit');
		expect(agentNotes).toContain('`grep -q refreshToken src/auth/jwt.ts` failed with exit code 1');
	});

	it('writes agent_trace.jsonl lines that are valid Agent Trace 0.1.0 records linked to intents', async () => {
		await replayDemo();
		const ajv = new Ajv2020({ strict: true, allErrors: true });
		addFormats.default(ajv);
		const validate = ajv.compile(agentTraceSchema);
		const lines = (await readFile(join(workspace, '.orchestration/agent_trace.jsonl'), 'utf8'))
			.trim()
			.split('\n');
		expect(lines).toHaveLength(5);
		for (const line of lines) {
			const record = JSON.parse(line);
			expect(validate(record), JSON.stringify(validate.errors)).toBe(true);
			for (const file of record.files) {
				for (const conversation of file.conversations) {
					for (const range of conversation.ranges)
						expect(range.start_line).toBeGreaterThanOrEqual(1);
				}
			}
		}
		const agentRecords = lines
			.map((line) => JSON.parse(line))
			.filter((record) => record.files[0].conversations[0].contributor.type === 'ai');
		expect(
			agentRecords.every((record) =>
				record.files[0].conversations[0].related[0].url.startsWith('urn:threadline:intent:INT-00')
			)
		).toBe(true);
	});

	it('exports records that verify, as a folder and as a zip', async () => {
		await replayDemo();
		const folder = captureOutput();
		expect(await main(['verify', workspace], folder.output)).toBe(0);
		expect(folder.out.join('\n')).toContain('OK: chain, schema and content hashes hold');
		const zipPath = join(workspace, '..', `${workspace.split('/').at(-1)}.zip`);
		await writeFile(zipPath, zipEntries(await readFolderEntries(workspace)));
		try {
			const zipped = captureOutput();
			expect(await main(['verify', zipPath, '--json'], zipped.output)).toBe(0);
			const report = JSON.parse(zipped.out.join('\n'));
			expect(report.trace.records).toBe(5);
			expect(report.classMismatches).toEqual([
				expect.objectContaining({
					path: 'src/auth/session.ts',
					declared: 'AST_REFACTOR',
					computed: 'INTENT_EVOLUTION'
				})
			]);
		} finally {
			await rm(zipPath, { force: true });
		}
	});

	it('fails verify, naming the record, when a trace line or a file is tampered with', async () => {
		await replayDemo();
		const tracePath = join(workspace, '.orchestration/agent_trace.jsonl');
		const original = await readFile(tracePath, 'utf8');
		// Flip one hex digit of the first range hash: the record no longer matches its chain hash.
		const tampered = original.replace(
			/"content_hash":"sha256:(.)/,
			(_match, digit: string) => `"content_hash":"sha256:${digit === '0' ? '1' : '0'}`
		);
		expect(tampered).not.toBe(original);
		await writeFile(tracePath, tampered);
		const traced = captureOutput();
		expect(await main(['verify', workspace], traced.output)).toBe(1);
		expect(traced.err.join('\n')).toMatch(/FAILED: .*(seq|line) \d+/);

		await writeFile(tracePath, original);
		await writeFile(join(workspace, 'src/auth/jwt.ts'), '// sneaky unrecorded edit\n', {
			flag: 'a'
		});
		const edited = captureOutput();
		expect(await main(['verify', workspace], edited.output)).toBe(1);
		expect(edited.out.join('\n')).toContain('src/auth/jwt.ts');
	});

	it('reports per intent what a grader needs', async () => {
		await replayDemo();
		const streams = captureOutput();
		expect(await main(['report', workspace, '--format', 'json'], streams.output)).toBe(0);
		const report = JSON.parse(streams.out.join('\n'));
		expect(report.verified).toBe(true);
		const auth = report.intents.find(
			(intent: { intent_id: string }) => intent.intent_id === 'INT-001'
		);
		expect(auth).toMatchObject({
			status: 'COMPLETED',
			files_touched: ['src/auth/jwt.ts', 'src/auth/notes.txt', 'src/auth/session.ts'],
			mutations: 3,
			declared: { AST_REFACTOR: 1, INTENT_EVOLUTION: 1 },
			computed: { AST_REFACTOR: 0, INTENT_EVOLUTION: 3 },
			class_mismatches: 1,
			blocked_by_code: {
				scope_violation: 2,
				stale_file: 1,
				user_rejected: 1,
				protected_path: 1,
				command_failed: 1
			},
			approvals: 3,
			rejections: 1
		});
		expect(auth.lessons).toHaveLength(2);
		const database = report.intents.find(
			(intent: { intent_id: string }) => intent.intent_id === 'INT-002'
		);
		expect(database).toMatchObject({
			files_touched: ['src/db/users.ts'],
			computed: { AST_REFACTOR: 1, INTENT_EVOLUTION: 0 },
			class_mismatches: 0
		});
		expect(report.unassigned.blocked_by_code).toEqual({ intent_required: 1, intent_locked: 1 });
	});

	it('batch-grades a folder of exports into one CSV row each', async () => {
		await replayDemo();
		const batch = await mkdtemp(join(tmpdir(), 'threadline-batch-'));
		try {
			await cp(workspace, join(batch, 'alice'), { recursive: true });
			await writeFile(join(batch, 'bob.zip'), zipEntries(await readFolderEntries(workspace)));
			const streams = captureOutput();
			expect(await main(['report', batch, '--format', 'csv'], streams.output)).toBe(0);
			const rows = streams.out.join('\n').split('\n');
			expect(rows).toHaveLength(3);
			expect(rows[1]).toMatch(/^alice,yes,INT-001 INT-002,/);
			expect(rows[2]).toMatch(/^bob\.zip,yes,/);
		} finally {
			await rm(batch, { recursive: true, force: true });
		}
	});

	it('scores exports with a scenario rubric, and refuses a rubric with line:column errors', async () => {
		await replayDemo();
		const scenario = `${workspace}-scenario.yaml`;
		const head = 'id: trp1\ntitle: T\nsummary: S\nbrief: B\n';
		try {
			await writeFile(
				scenario,
				`${head}rubric:\n  criteria:\n    - { intent: INT-001, points: 60 }\n    - { intent: INT-002, points: 40 }\n  penalties:\n    blocks: { scope_violation: 5 }\n`
			);
			const streams = captureOutput();
			expect(
				await main(['report', workspace, '--format', 'csv', '--rubric', scenario], streams.output)
			).toBe(0);
			const rows = streams.out.join('\n').split('\n');
			expect(rows[0]?.endsWith(',scenario,score,max_score,score_note')).toBe(true);
			// issue 28: a bare replay's ledger names no scenario, so trp1's rubric cannot be known
			// to apply to it: no score, and the row says why.
			expect(rows[1]).toMatch(/,,,,"?not scored: the export does not name its scenario/);
			await writeFile(scenario, `${head}rubric:\n  penalties:\n    blocks: { scope: 5 }\n`);
			const bad = captureOutput();
			expect(await main(['report', workspace, '--rubric', scenario], bad.output)).toBe(2);
			expect(bad.err.join('\n')).toMatch(/scenario\.yaml:7:15 unknown key "scope"/);
		} finally {
			await rm(scenario, { force: true });
		}
	});

	it('continues the same ledger when replayed twice', async () => {
		await replayDemo();
		const second = captureOutput();
		// The script lives outside the workspace: a file inside it would be an unrecorded change.
		const script = `${workspace}-again.yaml`;
		await writeFile(script, 'steps:\n  - call: list_files\n    input: {}\n');
		try {
			expect(await main(['replay', script, '--workspace', workspace], second.output)).toBe(0);
		} finally {
			await rm(script, { force: true });
		}
		const verify = captureOutput();
		expect(await main(['verify', workspace], verify.output)).toBe(0);
	});
});

describe('threadline: bad input gets a clear error', () => {
	it('exits 2 with line:column for an invalid script', async () => {
		const script = join(workspace, 'bad.yaml');
		await writeFile(script, 'steps:\n  - call: write_to_file\n    input: [oops\n');
		const streams = captureOutput();
		expect(await main(['replay', script, '--workspace', workspace], streams.output)).toBe(2);
		expect(streams.err[0]).toMatch(/bad\.yaml:\d+:\d+ /);
	});

	it('exits 2 for an unreadable script or workspace and for unknown options', async () => {
		for (const argv of [
			['replay', join(workspace, 'missing.yaml'), '--workspace', workspace],
			['replay', join(fixtures, 'trp1-demo.yaml'), '--workspace', join(workspace, 'nope')],
			['replay', join(fixtures, 'trp1-demo.yaml')],
			['verify', workspace, '--colour'],
			['verify', join(workspace, 'nothing-here')],
			['frobnicate']
		]) {
			const streams = captureOutput();
			expect(await main(argv, streams.output), argv.join(' ')).toBe(2);
			expect(streams.err.join('\n')).toMatch(/^threadline: /);
		}
	});

	it('validates an intents file with line:column errors', async () => {
		const good = captureOutput();
		expect(
			await main(
				['validate', join(fixtures, 'trp1-workspace/.orchestration/active_intents.yaml')],
				good.output
			)
		).toBe(0);
		expect(good.out[0]).toContain('2 intent(s)');
		const file = join(workspace, 'broken.yaml');
		await writeFile(file, 'active_intents:\n  - id: INT-9\n    name: x\n    status: DONE\n');
		const bad = captureOutput();
		expect(await main(['validate', file], bad.output)).toBe(1);
		expect(bad.err[0]).toMatch(/broken\.yaml:4:13 .*DRAFT, IN_PROGRESS, BLOCKED, COMPLETED/);
	});

	it('runs as a real process through the bin entry', async () => {
		const binary = join(import.meta.dirname, '..', 'threadline.js');
		const { stdout } = await run(process.execPath, [
			binary,
			'validate',
			join(fixtures, 'trp1-workspace/.orchestration/active_intents.yaml')
		]);
		expect(stdout).toContain('valid');
		await expect(
			run(process.execPath, [binary, 'verify', join(workspace, 'nope')])
		).rejects.toMatchObject({ code: 2 });
	});
});
