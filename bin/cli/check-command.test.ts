import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipEntries } from '../../hooks/ledger/read-export.js';
import { captureOutput } from './capture-output.js';
import { main } from './main.js';
import { readFolderEntries } from './read-export-source.js';

const fixtures = join(import.meta.dirname, '..', 'fixtures');
const scenarios = join(import.meta.dirname, '..', '..', 'public', 'scenarios');

let scratch: string;
beforeAll(async () => {
	scratch = await mkdtemp(join(tmpdir(), 'threadline-check-'));
});
afterAll(async () => {
	await rm(scratch, { recursive: true, force: true });
});

async function replayInto(name: string, files: string, demo: string, extra: string[] = []) {
	const workspace = join(scratch, name);
	await cp(files, workspace, { recursive: true });
	const streams = captureOutput();
	expect(await main(['replay', demo, '--workspace', workspace, ...extra], streams.output)).toBe(0);
	return workspace;
}

async function check(args: string[]) {
	const streams = captureOutput();
	const code = await main(['check', ...args], streams.output);
	return { code, out: streams.out.join('\n'), err: streams.err.join('\n') };
}

describe('threadline check', () => {
	it('passes the replayed TRP1 demo, and fails the same export once a file is tampered with', async () => {
		const workspace = await replayInto(
			'trp1',
			join(fixtures, 'trp1-workspace'),
			join(fixtures, 'trp1-demo.yaml')
		);
		const before = await readFolderEntries(workspace);
		const passed = await check([workspace]);
		expect(passed.code).toBe(0);
		expect(passed.out).toMatch(/PASS\s+The JWT module exports verifyToken/);
		expect(passed.out).toMatch(/MANUAL Unit tests in tests\/auth\/ pass/);
		expect(passed.out).toMatch(/^OK: \d+ passed, 0 failed, \d+ manual/m);
		// Nothing was written back.
		expect(await readFolderEntries(workspace)).toEqual(before);

		const jwt = join(workspace, 'src/auth/jwt.ts');
		await writeFile(
			jwt,
			(await readFile(jwt, 'utf8')).replace('export function verifyToken', 'function verifyToken')
		);
		const failed = await check([workspace]);
		expect(failed.code).toBe(1);
		expect(failed.out).toMatch(
			/FAIL\s+The JWT module exports verifyToken\n\s+\$ grep -q 'export function verifyToken' src\/auth\/jwt\.ts\s+\(exit 1\)/
		);
		expect(failed.out).toMatch(/^FAILED: /m);
	}, 120_000);

	it('runs the jwt-auth tests offline (npm test -- tests/auth) per intent, from a zip, as JSON', async () => {
		const workspace = await replayInto(
			'jwt-auth',
			join(scenarios, 'jwt-auth', 'files'),
			join(scenarios, 'jwt-auth', 'demo.yaml'),
			['--policy', 'destructive']
		);
		const zip = join(scratch, 'jwt-auth.zip');
		await writeFile(zip, zipEntries(await readFolderEntries(workspace)));
		const one = await check([zip, '--intent', 'INT-001', '--json']);
		expect(one.code).toBe(0);
		const report = JSON.parse(one.out) as {
			ok: boolean;
			intents: {
				intent_id: string;
				criteria: { run?: string; outcome: string; output?: string }[];
			}[];
		};
		expect(report.ok).toBe(true);
		expect(report.intents.map((intent) => intent.intent_id)).toEqual(['INT-001']);
		const tests = report.intents[0]?.criteria.find(
			(criterion) => criterion.run === 'npm test -- tests/auth'
		);
		expect(tests?.outcome).toBe('passed');
		expect(tests?.output).toMatch(/ok\s+auth\/bearer\.test\.ts/);

		// A tampered signature check: the token tests fail, and check says which criterion.
		const jwt = join(workspace, 'src/auth/jwt.ts');
		await writeFile(jwt, (await readFile(jwt, 'utf8')).replace('if (!valid) return null;', ''));
		const tampered = await check([workspace, '--intent', 'INT-001']);
		expect(tampered.code).toBe(1);
		expect(tampered.out).toMatch(/FAIL\s+The auth tests pass/);
		expect(tampered.out).toMatch(/FAIL\s+auth\/jwt\.test\.ts/);
	}, 180_000);

	it('says what is wrong with its arguments (exit 2)', async () => {
		expect((await check([])).code).toBe(2);
		const missing = await check([join(scratch, 'nothing-here')]);
		expect(missing.code).toBe(2);
		expect(missing.err).toMatch(/does not exist/);
	});
});
