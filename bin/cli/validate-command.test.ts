import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultScenariosRoot } from './build-scenarios.js';
import { captureOutput } from './capture-output.js';
import { main } from './main.js';

let scratch: string;
beforeAll(async () => {
	scratch = await mkdtemp(join(tmpdir(), 'threadline-validate-'));
});
afterAll(async () => {
	await rm(scratch, { recursive: true, force: true });
});

async function copyOf(id: string, name: string): Promise<string> {
	const folder = join(scratch, name, id);
	await mkdir(join(scratch, name), { recursive: true });
	await cp(join(defaultScenariosRoot, id), folder, { recursive: true });
	return folder;
}

describe('threadline validate <file> recognises the file by its name', () => {
	it('reads hooks.yaml as a hook policy, with line:column', async () => {
		const folder = join(scratch, 'policy', '.orchestration');
		await mkdir(folder, { recursive: true });
		const file = join(folder, 'hooks.yaml');
		await writeFile(
			file,
			'rules:\n  - match: { tools: [write_to_file] }\n    action: deny\n  - match: { tools: [write_to_file] }\n    action: maybe\n'
		);
		const broken = captureOutput();
		expect(await main(['validate', file], broken.output)).toBe(1);
		expect(broken.err[0]).toMatch(/hooks\.yaml:5:13 /);
		expect(broken.err.join('\n')).not.toMatch(/active_intents/);

		await writeFile(file, 'rules:\n  - match: { tools: [write_to_file] }\n    action: deny\n');
		const valid = captureOutput();
		expect(await main(['validate', file], valid.output)).toBe(0);
		expect(valid.out[0]).toMatch(/valid hook policy — 1 rule\(s\)/);
	});

	it('reads scenario.yaml as its scenario folder and cross-checks the rubric against the intents', async () => {
		const folder = await copyOf('weather-api', 'rubric');
		const manifestPath = join(folder, 'scenario.yaml');
		const manifest = await readFile(manifestPath, 'utf8');
		await writeFile(
			manifestPath,
			`${manifest.trimEnd()}\nrubric:\n  criteria:\n    - intent: INT-001\n      points: 50\n    - intent: INT-404\n      points: 50\n`
		);
		const streams = captureOutput();
		expect(await main(['validate', manifestPath], streams.output)).toBe(1);
		const lines = manifest.trimEnd().split('\n').length;
		expect(streams.err[0]).toMatch(
			new RegExp(
				`scenario\\.yaml:${lines + 5}:15 rubric\\.criteria\\[1\\]\\.intent names "INT-404", which is not an intent`
			)
		);
	});

	it('refuses a demo whose calls name intents the scenario does not have (a stale demo of another scenario)', async () => {
		const folder = await copyOf('weather-api', 'stale-demo');
		await cp(join(defaultScenariosRoot, 'jwt-auth', 'demo.yaml'), join(folder, 'demo.yaml'));
		const streams = captureOutput();
		expect(await main(['validate', folder], streams.output)).toBe(1);
		expect(streams.err.join('\n')).toMatch(
			/demo\.yaml:\d+:\d+ step \d+ \(\w+\) names "INT-003", which is not an intent/
		);
		// The demo on its own is a valid script: only its scenario can tell it is stale.
		const alone = captureOutput();
		expect(await main(['validate', join(folder, 'demo.yaml')], alone.output)).toBe(0);
		expect(alone.out[0]).toMatch(/valid demo script/);
	});

	it('still validates the built-in scenarios and their intents files', async () => {
		const streams = captureOutput();
		expect(await main(['validate', defaultScenariosRoot], streams.output)).toBe(0);
		const intents = captureOutput();
		const file = join(
			defaultScenariosRoot,
			'jwt-auth',
			'files',
			'.orchestration',
			'active_intents.yaml'
		);
		expect(await main(['validate', file], intents.output)).toBe(0);
	});
});
