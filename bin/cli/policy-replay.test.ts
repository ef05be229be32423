import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentHash } from '../../hooks/hashing/sha256.js';
import { captureOutput } from './capture-output.js';
import { main } from './main.js';

const fixtures = join(import.meta.dirname, '..', 'fixtures');
let workspace: string;

const policy = `rules:
  - match: { tools: [write_to_file], paths: ["src/auth/secrets/**"] }
    action: deny
    message: "Secrets are written by people only."
  - match: { tools: [write_to_file, apply_diff], paths: ["src/**/*.ts"], intents: [INT-001] }
    action: run
    run: "grep -q refreshToken src/auth/jwt.ts"
`;

const script = `model: demo/scripted
steps:
  - call: select_active_intent
    input: { intent_id: INT-001 }
    expect: ok
  - call: write_to_file
    input: { path: src/auth/secrets/key.ts, content: "export const key = 1;\\n", intent_id: INT-001, mutation_class: INTENT_EVOLUTION }
    approve: true
    expect: protected_path
  - call: write_to_file
    input: { path: src/auth/jwt.ts, content: "export const sign = 1;\\n", intent_id: INT-001, mutation_class: INTENT_EVOLUTION }
    approve: true
    expect: command_failed
  - call: write_to_file
    input: { path: src/auth/jwt.ts, content: "export const refreshToken = 1;\\n", intent_id: INT-001, mutation_class: INTENT_EVOLUTION }
    approve: true
    expect: ok
`;

beforeEach(async () => {
	workspace = await mkdtemp(join(tmpdir(), 'threadline-policy-'));
	await cp(join(fixtures, 'trp1-workspace'), workspace, { recursive: true });
	await rm(join(workspace, '.orchestration/audit.jsonl'), { force: true });
	await rm(join(workspace, '.orchestration/agent_trace.jsonl'), { force: true });
});

afterEach(async () => {
	await rm(workspace, { recursive: true, force: true });
});

async function replay(scriptText: string) {
	const scriptPath = join(workspace, '..', `${workspace.split('/').pop()}-script.yaml`);
	await writeFile(scriptPath, scriptText);
	const streams = captureOutput();
	const code = await main(['replay', scriptPath, '--workspace', workspace], streams.output);
	await rm(scriptPath, { force: true });
	return { code, lines: streams.out.map((line) => JSON.parse(line)), err: streams.err };
}

describe('threadline replay enforces the scenario hook policy', () => {
	it('denies, runs the check in the real sandbox, and records the policy hash', async () => {
		await writeFile(join(workspace, '.orchestration/hooks.yaml'), policy);
		const { code, lines, err } = await replay(script);
		expect(err.filter((line) => line.startsWith('step '))).toEqual([]);
		expect(code).toBe(0);
		expect(lines[1].error.message).toContain('Secrets are written by people only.');
		expect(lines[2].error.message).toContain('grep -q refreshToken src/auth/jwt.ts');
		const audit = (await readFile(join(workspace, '.orchestration/audit.jsonl'), 'utf8'))
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line));
		const load = audit.find((event) => event.type === 'hook-policy-load');
		expect(load).toMatchObject({ ok: true, rules: 2, policy_hash: await contentHash(policy) });
	});

	it('fails closed on a broken policy and names the line:column', async () => {
		await writeFile(
			join(workspace, '.orchestration/hooks.yaml'),
			'rules:\n  - match: { tools: [write_to_file] }\n    action: nope\n'
		);
		const { code, lines, err } = await replay(script);
		expect(code).toBe(1);
		expect(err.some((line) => /hooks\.yaml:3:13 /.test(line))).toBe(true);
		expect(lines[2].error.code).toBe('hook_failed');
	});
});
