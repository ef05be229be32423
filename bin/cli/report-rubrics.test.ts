import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultScenariosRoot } from './build-scenarios.js';
import { captureOutput } from './capture-output.js';
import { main } from './main.js';

let scratch: string;
beforeAll(async () => {
	scratch = await mkdtemp(join(tmpdir(), 'threadline-rubrics-'));
});
afterAll(async () => {
	await rm(scratch, { recursive: true, force: true });
});

async function scenarioWithRubric(root: string, id: string, folder = id): Promise<void> {
	await cp(join(defaultScenariosRoot, id), join(root, folder), { recursive: true });
	const path = join(root, folder, 'scenario.yaml');
	const text = await readFile(path, 'utf8');
	await writeFile(
		path,
		`${text.trimEnd()}\nrubric:\n  criteria:\n    - { intent: INT-001, points: 10 }\n`
	);
}

describe('threadline report --rubric <folder of scenarios>', () => {
	it('refuses two rubrics for one scenario, and a folder with none', async () => {
		const root = join(scratch, 'twice');
		await mkdir(root, { recursive: true });
		await scenarioWithRubric(root, 'weather-api');
		await scenarioWithRubric(root, 'weather-api', 'weather-copy');
		const twice = captureOutput();
		expect(await main(['report', scratch, '--rubric', root], twice.output)).toBe(2);
		expect(twice.err.join('\n')).toMatch(/two rubrics for scenario "weather-api"/);

		const empty = join(scratch, 'none');
		await cp(join(defaultScenariosRoot, 'weather-api'), join(empty, 'weather-api'), {
			recursive: true
		});
		const none = captureOutput();
		expect(await main(['report', scratch, '--rubric', empty], none.output)).toBe(2);
		expect(none.err.join('\n')).toMatch(/no scenario with a rubric/);
	});
});
