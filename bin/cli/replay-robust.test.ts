import { cp, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureOutput } from './capture-output.js';
import { main } from './main.js';

/**
 * `threadline replay` never crashes (issue 7, cause 5): a bad script exits 2 with file:line:column
 * before anything runs; a step that cannot run stops the replay with exit 1 and the reason, and
 * the ledger of what already happened is still written.
 */
const fixtures = join(import.meta.dirname, '..', 'fixtures');
let workspace: string;
let scripts: string;

beforeEach(async () => {
	workspace = await mkdtemp(join(tmpdir(), 'threadline-replay-'));
	scripts = await mkdtemp(join(tmpdir(), 'threadline-scripts-'));
	await cp(join(fixtures, 'trp1-workspace'), workspace, { recursive: true });
});

afterEach(async () => {
	await rm(workspace, { recursive: true, force: true });
	await rm(scripts, { recursive: true, force: true });
});

async function replay(script: string) {
	const path = join(scripts, 'script.yaml');
	await writeFile(path, script);
	const streams = captureOutput();
	const code = await main(['replay', path, '--workspace', workspace], streams.output);
	return { code, out: streams.out, err: streams.err.join('\n'), path };
}

const exists = (path: string) =>
	stat(path).then(
		() => true,
		() => false
	);
const selectAndWrite = `steps:
  - call: select_active_intent
    input: { intent_id: INT-001 }
  - call: write_to_file
    input: { path: src/auth/a.ts, content: "export {};\\n", intent_id: INT-001, mutation_class: INTENT_EVOLUTION }
    approve: true
`;

describe('replay: bad scripts exit 2 before anything runs', () => {
	it.each([
		[
			'an alias bomb',
			`a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nsteps:\n  - say: *e\n`,
			/:\d+:\d+ .*alias/i
		],
		['an unknown field', 'steps:\n  - say: hi\n    colour: red\n', /:3:5 .*colour/],
		['a wrong type', 'steps:\n  - call: read_file\n    input: [1, 2]\n', /:3:12 /],
		['no steps', 'model: demo/x\n', /steps/],
		['a syntax error', 'steps: [\n', /:\d+:\d+ /]
	])('%s', async (_label, script, message) => {
		const result = await replay(script);
		expect(result.code).toBe(2);
		expect(result.err).toMatch(message);
		expect(result.err).toContain(`${result.path}:`);
		expect(result.err).not.toMatch(/\n\s+at /);
		expect(await exists(join(workspace, '.orchestration/audit.jsonl'))).toBe(false);
	});

	it('a folder given as the script', async () => {
		const streams = captureOutput();
		const code = await main(['replay', scripts, '--workspace', workspace], streams.output);
		expect(code).toBe(2);
		expect(streams.err.join('\n')).toContain('is not a file');
	});
});

describe('replay: a step that cannot run stops with exit 1 and still writes the ledger', () => {
	async function expectStoppedWithLedger(script: string, reason: RegExp) {
		const result = await replay(script);
		expect(result.code).toBe(1);
		expect(result.err).toMatch(reason);
		expect(result.err).not.toMatch(/\n\s+at /);
		// The two steps before the failing one are in the ledger, and the export verifies.
		const audit = await readFile(join(workspace, '.orchestration/audit.jsonl'), 'utf8');
		expect(audit).toContain('"mutation-record"');
		const verify = captureOutput();
		expect(await main(['verify', workspace], verify.output)).toBe(0);
	}

	it('human_edit on ../../x', async () => {
		await expectStoppedWithLedger(
			`${selectAndWrite}  - human_edit: { path: ../../x, content: "x" }\n`,
			/step 3: .*climbs above the workspace root/
		);
		expect(await exists(join(workspace, '..', '..', 'x'))).toBe(false);
	});

	it('human_edit on a folder', async () => {
		await expectStoppedWithLedger(
			`${selectAndWrite}  - human_edit: { path: src/auth, content: "x" }\n`,
			/step 3: .*a folder, not a file/
		);
	});

	it('human_edit through a link', async () => {
		const outside = await mkdtemp(join(tmpdir(), 'threadline-outside-'));
		await symlink(outside, join(workspace, 'src/auth/out'));
		await expectStoppedWithLedger(
			`${selectAndWrite}  - human_edit: { path: src/auth/out/x.txt, content: "x" }\n`,
			/step 3: .*src\/auth\/out is a symbolic link/
		).catch(async (error) => {
			await rm(outside, { recursive: true, force: true });
			throw error;
		});
		expect(await exists(join(outside, 'x.txt'))).toBe(false);
		await rm(outside, { recursive: true, force: true });
	});

	it('a folder where .orchestration/audit.jsonl goes: the ledger goes to a temporary folder', async () => {
		await mkdir(join(workspace, '.orchestration/audit.jsonl'));
		const result = await replay(selectAndWrite);
		expect(result.code).toBe(1);
		const fallback = /the ledger was written to (\S+) instead/.exec(result.err)?.[1];
		expect(fallback).toBeTruthy();
		const audit = await readFile(join(fallback as string, 'audit.jsonl'), 'utf8');
		expect(audit).toContain('"mutation-record"');
		expect(result.err).not.toMatch(/\n\s+at /);
		await rm(fallback as string, { recursive: true, force: true });
	});
});
