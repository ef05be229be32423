import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateScenarioBundle } from '../../hooks/scenarios/scenario-bundle.js';
import { buildScenarios, checkScenarios, defaultScenariosRoot } from './build-scenarios.js';
import { DiskWorkspaceFiles } from '../../sandbox/local/disk-workspace-files.js';
import { createLocalSandbox } from '../../sandbox/local/local-sandbox.js';
import { captureOutput } from './capture-output.js';
import { main } from './main.js';

const run = promisify(execFile);
const repositoryRoot = join(import.meta.dirname, '..', '..');
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

const builtIns = (await readdir(defaultScenariosRoot, { withFileTypes: true }))
	.filter((entry) => entry.isDirectory())
	.map((entry) => entry.name)
	.sort();

let scratch: string;
beforeAll(async () => {
	scratch = await mkdtemp(join(tmpdir(), 'threadline-scenarios-'));
});
afterAll(async () => {
	await rm(scratch, { recursive: true, force: true });
});

/**
 * The scenario's own tests, `npm test`, run two ways: by real Node with tsx, and by the offline
 * sandbox (the runtime on QuickJS that the browser uses), which must agree.
 */
async function runLearnerTests(workspace: string): Promise<{ output: string; exitCode: number }> {
	const real = await run(process.execPath, ['--import', tsxLoader, 'tests/run-all.ts'], {
		cwd: workspace
	}).then(
		({ stdout }) => ({ output: stdout, exitCode: 0 }),
		(error: { stdout?: string; code?: number }) => ({
			output: error.stdout ?? '',
			exitCode: error.code ?? 1
		})
	);
	const sandbox = await createLocalSandbox({ files: new DiskWorkspaceFiles(workspace) });
	try {
		const offline = await sandbox.exec('npm test --silent', { timeoutMs: 60_000 });
		// The verdict per file (the wording of an error differs between the runtimes).
		const verdicts = (text: string) =>
			text
				.split('\n')
				.filter((line) => /^(ok|FAIL)\s/.test(line))
				.map((line) => line.split(':')[0]);
		expect(verdicts(offline.output)).toEqual(verdicts(real.output));
		expect(offline.exitCode === 0).toBe(real.exitCode === 0);
		expect(offline.changes).toEqual([]);
	} finally {
		await sandbox.dispose();
	}
	return real;
}

/** Where a scenario's starting code fails its tests on purpose: the task, written as a test. */
const failingAtStart: Record<string, string[]> = { 'jwt-auth': ['auth/bearer.test.ts'] };

interface ReplayLine {
	step: number;
	session: string;
	tool: string;
	ok: boolean;
	error?: { code: string };
}

async function replayBuiltIn(id: string): Promise<{ workspace: string; lines: ReplayLine[] }> {
	const folder = join(defaultScenariosRoot, id);
	const manifest = parse(await readFile(join(folder, 'scenario.yaml'), 'utf8')) as {
		approval_policy?: string;
	};
	const workspace = join(scratch, `${id}-replay`);
	await rm(workspace, { recursive: true, force: true });
	await cp(join(folder, 'files'), workspace, { recursive: true });
	const streams = captureOutput();
	const code = await main(
		[
			'replay',
			join(folder, 'demo.yaml'),
			'--workspace',
			workspace,
			'--policy',
			manifest.approval_policy ?? 'destructive'
		],
		streams.output
	);
	expect(streams.err.filter((line) => /^step \d+: expected/.test(line))).toEqual([]);
	expect(code).toBe(0);
	return { workspace, lines: streams.out.map((line) => JSON.parse(line) as ReplayLine) };
}

const outcome = (line: ReplayLine) => (line.ok ? 'ok' : (line.error?.code ?? '?'));

describe('the built-in scenarios', () => {
	it('are the three the app ships, with jwt-auth as the default', async () => {
		expect(builtIns).toEqual(['jwt-auth', 'refactor-only', 'weather-api']);
		const checked = await checkScenarios(defaultScenariosRoot);
		expect(checked.errors).toEqual([]);
		expect(checked.scenarios.flatMap((scenario) => scenario.errors)).toEqual([]);
		const defaults = checked.scenarios.filter((scenario) => scenario.bundle?.manifest.default);
		expect(defaults.map((scenario) => scenario.bundle?.manifest.id)).toEqual(['jwt-auth']);
	});

	it.each(builtIns)('%s: every call of the demo states what it expects', async (id) => {
		const demo = parse(await readFile(join(defaultScenariosRoot, id, 'demo.yaml'), 'utf8')) as {
			steps: Record<string, unknown>[];
		};
		const calls = demo.steps.filter((step) => 'call' in step);
		expect(calls.length).toBeGreaterThan(5);
		expect(calls.filter((step) => step.expect === undefined)).toEqual([]);
	});

	it.each(builtIns)(
		'%s: the starting code passes its own tests, and the demo replays, verifies and still passes them',
		async (id) => {
			const start = join(scratch, `${id}-start`);
			await cp(join(defaultScenariosRoot, id, 'files'), start, { recursive: true });
			const atStart = await runLearnerTests(start);
			const failing = failingAtStart[id] ?? [];
			expect(
				atStart.output
					.split('\n')
					.filter((line) => line.startsWith('FAIL'))
					.map((line) => line.split(/\s+/)[1]?.replace(/:$/, ''))
			).toEqual(failing);
			expect(atStart.exitCode === 0).toBe(failing.length === 0);

			const { workspace } = await replayBuiltIn(id);
			const verified = captureOutput();
			expect(await main(['verify', workspace], verified.output)).toBe(0);
			expect(verified.out.join('\n')).toContain('OK: chain, schema and content hashes hold');
			const after = await runLearnerTests(workspace);
			expect(after.output).toMatch(/all \d+ test file\(s\) passed/);
			expect(after.exitCode).toBe(0);
			const intents = await readFile(join(workspace, '.orchestration/active_intents.yaml'), 'utf8');
			// Every IN_PROGRESS intent of a demo is completed by it: its criteria ran and passed.
			expect(intents).not.toMatch(/status: IN_PROGRESS/);
		}
	);

	it('jwt-auth: the demo shows every block the brief promises', async () => {
		const { lines } = await replayBuiltIn('jwt-auth');
		const codes = new Set(lines.map(outcome));
		for (const code of [
			'intent_required',
			'intent_not_active',
			'intent_locked',
			'scope_violation',
			'stale_file',
			'command_denied',
			'protected_path',
			'user_rejected',
			'command_failed'
		]) {
			expect(codes, code).toContain(code);
		}
		expect(new Set(lines.map((line) => line.session))).toEqual(new Set(['builder', 'refactorer']));
	});

	it('weather-api: an Architect and a Builder, each blocked from the other’s files', async () => {
		const { lines } = await replayBuiltIn('weather-api');
		const blocked = lines
			.filter((line) => !line.ok)
			.map((line) => `${line.session}:${line.tool}:${outcome(line)}`);
		expect(blocked).toEqual([
			'builder:write_to_file:scope_violation',
			'builder:request_scope_expansion:user_rejected',
			'architect:write_to_file:scope_violation',
			'builder:execute_command:scope_violation'
		]);
	});

	it('refactor-only: one declared refactor is confirmed, one is flagged as evolution', async () => {
		const { workspace, lines } = await replayBuiltIn('refactor-only');
		expect(lines.filter((line) => line.tool === 'apply_diff').map(outcome)).toEqual([
			'ok',
			'ok',
			'user_rejected'
		]);
		const invoiceRecords = (
			await readFile(join(workspace, '.orchestration/agent_trace.jsonl'), 'utf8')
		)
			.trim()
			.split('\n')
			.filter((line) => JSON.parse(line).files[0].path === 'src/invoice.ts');
		expect(invoiceRecords).toHaveLength(2);
		const report = captureOutput();
		expect(await main(['report', workspace, '--format', 'json'], report.output)).toBe(0);
		const refactor = JSON.parse(report.out.join('\n')).intents.find(
			(intent: { intent_id: string }) => intent.intent_id === 'INT-001'
		);
		expect(refactor).toMatchObject({
			declared: { AST_REFACTOR: 2, INTENT_EVOLUTION: 0 },
			computed: { AST_REFACTOR: 1, INTENT_EVOLUTION: 1 },
			class_mismatches: 1
		});
	});
});

/** A copy of the built-ins to break on purpose, without the generated JSON next to them. */
async function copyOfBuiltIns(name: string): Promise<string> {
	const root = join(scratch, name);
	await rm(root, { recursive: true, force: true });
	await mkdir(root);
	for (const id of builtIns) {
		await cp(join(defaultScenariosRoot, id), join(root, id), { recursive: true });
	}
	return root;
}

describe('threadline validate <scenario folder>', () => {
	it('validates a folder of scenarios and a single scenario', async () => {
		const all = captureOutput();
		expect(await main(['validate', defaultScenariosRoot], all.output)).toBe(0);
		expect(all.out).toHaveLength(3);
		expect(all.out[0]).toMatch(/jwt-auth: valid scenario "jwt-auth" \(default\) — 3 intent\(s\)/);
		const one = captureOutput();
		expect(await main(['validate', join(defaultScenariosRoot, 'weather-api')], one.output)).toBe(0);
		expect(one.out[0]).toMatch(
			/weather-api: valid scenario "weather-api" — 2 intent\(s\), \d+ file\(s\), demo of \d+ step\(s\)$/
		);
	});

	it('prints path:line:column for every problem and exits 1', async () => {
		const root = await copyOfBuiltIns('broken');
		const weather = join(root, 'weather-api');
		const manifest = await readFile(join(weather, 'scenario.yaml'), 'utf8');
		await writeFile(
			join(weather, 'scenario.yaml'),
			manifest.replace('approval_policy: destructive', 'approval_policy: sometimes')
		);
		await writeFile(
			join(weather, 'files/.orchestration/active_intents.yaml'),
			'active_intents:\n  - id: INT-001\n    name: x\n    status: DONE\n'
		);
		await writeFile(
			join(weather, 'demo.yaml'),
			'steps:\n  - call: read_file\n    input: {}\n    expect: fine\n'
		);
		const streams = captureOutput();
		expect(await main(['validate', root], streams.output)).toBe(1);
		expect(streams.err).toEqual([
			`${weather}/scenario.yaml:6:18 approval_policy must be one of always, destructive, never (got "sometimes")`,
			`${weather}/files/.orchestration/active_intents.yaml:4:13 status must be one of DRAFT, IN_PROGRESS, BLOCKED, COMPLETED (got "DONE")`,
			expect.stringMatching(
				new RegExp(`^${weather}/demo\\.yaml:4:13 expect must be ok or a ToolError code`)
			),
			`3 error(s) in ${root}`
		]);
		expect(streams.out).toHaveLength(2);
	});

	it('wants the folder name to equal the id, and exactly one default', async () => {
		const root = await copyOfBuiltIns('mismatch');
		await cp(join(root, 'weather-api'), join(root, 'weather'), { recursive: true });
		await rm(join(root, 'weather-api'), { recursive: true });
		const jwt = join(root, 'jwt-auth', 'scenario.yaml');
		await writeFile(jwt, (await readFile(jwt, 'utf8')).replace('default: true\n', ''));
		const streams = captureOutput();
		expect(await main(['validate', root], streams.output)).toBe(1);
		expect(streams.err[0]).toBe(
			`${root}/weather/scenario.yaml:1:5 id "weather-api" must equal the folder name "weather" (the ?scenario= value and the bundle's file name come from it)`
		);

		await cp(join(root, 'weather'), join(root, 'weather-api'), { recursive: true });
		await rm(join(root, 'weather'), { recursive: true });
		const none = captureOutput();
		expect(await main(['validate', root], none.output)).toBe(1);
		expect(none.err[0]).toBe(
			`${root}: no built-in scenario has "default: true"; mark exactly one (the one / opens)`
		);

		for (const id of ['jwt-auth', 'weather-api']) {
			const path = join(root, id, 'scenario.yaml');
			await writeFile(path, `${await readFile(path, 'utf8')}default: true\n`);
		}
		const two = captureOutput();
		expect(await main(['validate', root], two.output)).toBe(1);
		expect(two.err[0]).toBe(
			`${root}: 2 built-in scenarios have "default: true" (jwt-auth, weather-api); keep exactly one`
		);
	});

	it('reports stray folders and links inside a scenario', async () => {
		const root = await copyOfBuiltIns('strays');
		await mkdir(join(root, 'drafts'));
		await symlink('/etc/passwd', join(root, 'refactor-only', 'files', 'passwords'));
		const streams = captureOutput();
		expect(await main(['validate', root], streams.output)).toBe(1);
		expect(streams.err).toContain(
			`${root}/drafts: not a scenario folder (no scenario.yaml); remove it or add one`
		);
		expect(streams.err).toContain(
			`${root}/refactor-only/files/passwords: is not a regular file (a link or a device); a scenario holds plain files only`
		);
	});

	it('exits 2 for a path that does not exist or holds no scenario', async () => {
		for (const path of [join(scratch, 'nothing-here'), await mkdtemp(join(scratch, 'empty-'))]) {
			const streams = captureOutput();
			expect(await main(['validate', path], streams.output)).toBe(2);
			expect(streams.err[0]).toMatch(/^threadline: /);
		}
	});
});

describe('build-scenarios', () => {
	it('writes index.json and one bundle per scenario, the same bytes every time', async () => {
		const root = await copyOfBuiltIns('build');
		await writeFile(join(root, 'old-scenario.json'), '{}');
		const first = captureOutput();
		expect(await buildScenarios(root, first.output)).toBe(0);
		expect(first.out.at(-1)).toBe('3 scenario(s): jwt-auth, refactor-only, weather-api');
		expect(first.out.join('\n')).toMatch(/old-scenario\.json {2}removed/);

		const names = (await readdir(root)).filter((name) => name.endsWith('.json')).sort();
		expect(names).toEqual([
			'index.json',
			'jwt-auth.json',
			'refactor-only.json',
			'weather-api.json'
		]);
		const index = JSON.parse(await readFile(join(root, 'index.json'), 'utf8'));
		expect(
			index.scenarios.map((entry: { id: string; default: boolean }) => [entry.id, entry.default])
		).toEqual([
			['jwt-auth', true],
			['refactor-only', false],
			['weather-api', false]
		]);
		expect(index.scenarios[1]).toEqual({
			id: 'refactor-only',
			title: 'Refactor only: a protected intent',
			summary: expect.stringContaining('invoice module'),
			default: false,
			approval_policy: 'never',
			sandbox: { needs: 'any', note: expect.any(String) }
		});
		const bundleText = await readFile(join(root, 'jwt-auth.json'), 'utf8');
		const bundle = JSON.parse(bundleText);
		expect(validateScenarioBundle(bundle)).toEqual({ ok: true, bundle });
		expect(Object.keys(bundle.files)).toEqual([...Object.keys(bundle.files)].sort());
		expect(bundle.files['.orchestration/active_intents.yaml'].content).toContain('id: INT-001');
		expect(bundle.demo).toContain('select_active_intent');

		const second = captureOutput();
		expect(await buildScenarios(root, second.output)).toBe(0);
		expect(second.out.filter((line) => line.endsWith('(unchanged)'))).toHaveLength(4);
		expect(await readFile(join(root, 'jwt-auth.json'), 'utf8')).toBe(bundleText);
	});

	it('writes nothing and fails with the errors when a scenario is invalid', async () => {
		const root = await copyOfBuiltIns('build-broken');
		await writeFile(join(root, 'refactor-only', 'files', '.intentignore'), 'INT-404\n');
		const streams = captureOutput();
		expect(await buildScenarios(root, streams.output)).toBe(1);
		expect(streams.err[0]).toBe(
			`${root}/refactor-only/files/.intentignore:1:1 lists "INT-404", which is not an intent in .orchestration/active_intents.yaml (known: INT-001, INT-002); a misspelled id protects nothing`
		);
		expect(streams.err.at(-1)).toBe('1 error(s): no scenario bundle was written');
		expect((await readdir(root)).filter((name) => name.endsWith('.json'))).toEqual([]);
	});

	it('runs as a script through bin/run-ts.js', async () => {
		const root = await copyOfBuiltIns('build-process');
		const { stdout } = await run(
			process.execPath,
			[
				join(repositoryRoot, 'bin', 'run-ts.js'),
				join(repositoryRoot, 'bin', 'cli', 'build-scenarios.ts'),
				root
			],
			{ cwd: repositoryRoot }
		);
		expect(stdout).toContain('3 scenario(s): jwt-auth, refactor-only, weather-api');
		await expect(
			run(process.execPath, [
				join(repositoryRoot, 'bin', 'run-ts.js'),
				join(repositoryRoot, 'bin', 'cli', 'build-scenarios.ts'),
				join(root, 'jwt-auth', 'files')
			])
		).rejects.toMatchObject({ code: 2 });
	});
});
