import { expect, test, type Locator, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { unzipSync } from 'fflate';
import { parse } from 'yaml';
import { serveStaticFiles, type StaticFilesServer } from './fixtures/static-files-server.js';
import { openIde, runInTerminal, terminalText } from './ide-helpers.js';

// Issue 12, the instructor's workbench: edit the scenario in the app (fields, brief, rubric with
// errors pointing at the line), export it, and open the exported zip through `/?scenario=` in a
// fresh browser context, as a learner would.

let host: StaticFilesServer;

/** The jwt-auth IDE with "Edit scenario" open. */
async function openAuthorDialog(page: Page): Promise<Locator> {
	await openIde(page, 'jwt-auth');
	await page
		.getByRole('navigation', { name: 'Scenario actions' })
		.getByRole('button', { name: 'Edit scenario' })
		.click();
	return page.getByRole('dialog', { name: 'Scenario' });
}
let exported: Uint8Array | null = null;

test.beforeAll(async () => {
	host = await serveStaticFiles(
		() => new Map(exported ? [['/authored.zip', { type: 'application/zip', body: exported }]] : [])
	);
});

test.afterAll(async () => {
	await host?.close();
});

test('edit a scenario with a rubric, export it, and open the zip in a fresh context', async ({
	page,
	browser
}, testInfo) => {
	test.setTimeout(180_000);
	const author = await openAuthorDialog(page);
	await expect(author).toBeVisible();

	await author.getByLabel('Id (kebab-case)').fill('rate-limits');
	await author.getByLabel('Title').fill('Rate limits for the login');
	await author.getByLabel('Summary').fill('Add a rate limit to the login under governance.');
	await author
		.getByLabel('Brief (markdown)')
		.fill('# Rate limits\n\nLimit failed logins to **5 per minute**.\n');
	await expect(author.getByRole('region', { name: 'Brief preview' })).toContainText(
		'Limit failed logins to 5 per minute.'
	);

	// A rubric with a YAML error: named at its line and column, and nothing can be exported.
	const rubric = author.getByLabel(/^Rubric \(YAML/);
	await rubric.fill('criteria:\n  - { intent: INT-001, points: 10\n');
	// Named beside the field and in the list of every problem at once.
	await expect(author.getByRole('listitem').getByText(/rubric:\d+:\d+/)).toBeVisible();
	await expect(rubric).toHaveAttribute('aria-invalid', 'true');
	await expect(author.getByRole('button', { name: 'Export scenario' })).toBeDisabled();
	// One the schema refuses: named by its path.
	await rubric.fill('criteria:\n  - { intent: INT-001, points: -1 }\n');
	await expect(author.getByRole('listitem').getByText('rubric.criteria.0.points')).toBeVisible();
	await rubric.fill(
		'criteria:\n  - { intent: INT-001, points: 10 }\npenalties:\n  verify_failed: 5\n'
	);
	await expect(rubric).toHaveAttribute('aria-invalid', 'false');

	const downloadPromise = page.waitForEvent('download');
	await author.getByRole('button', { name: 'Export scenario' }).click();
	const download = await downloadPromise;
	expect(download.suggestedFilename()).toBe('rate-limits.zip');
	// Two live regions: the export's outcome and the draft's ("Draft stored in this browser.").
	await expect(
		author.getByRole('status').filter({ hasText: 'Exported rate-limits.zip' })
	).toBeVisible();
	const zipPath = testInfo.outputPath('rate-limits.zip');
	await download.saveAs(zipPath);
	exported = new Uint8Array(await readFile(zipPath));

	// The zip: the scenario folder with its manifest (rubric included) and the workspace's files,
	// without the learner's ledger.
	const entries = unzipSync(exported);
	const manifest = parse(new TextDecoder().decode(entries['rate-limits/scenario.yaml'])) as {
		title: string;
		rubric: unknown;
	};
	expect(manifest.title).toBe('Rate limits for the login');
	expect(manifest.rubric).toMatchObject({ criteria: [{ intent: 'INT-001', points: 10 }] });
	expect(Object.keys(entries)).toContain('rate-limits/files/.orchestration/active_intents.yaml');
	expect(Object.keys(entries).some((name) => name.endsWith('audit.jsonl'))).toBe(false);

	// A learner opens it by URL, in a fresh context: untrusted, brief shown, the same files.
	const learnerContext = await browser.newContext();
	const learner = await learnerContext.newPage();
	await learner.goto(`/?scenario=${encodeURIComponent(`${host.origin}/authored.zip`)}`);
	const brief = learner.getByRole('dialog');
	await expect(brief).toBeVisible({ timeout: 60_000 });
	await expect(brief).toContainText('Limit failed logins to 5 per minute.');
	await brief.getByRole('button', { name: 'Close', exact: true }).click();
	await expect(learner.getByRole('combobox', { name: 'Scenario' })).toContainText(
		'Rate limits for the login'
	);
	await expect(
		learner.getByRole('tree', { name: 'Workspace files' }).getByRole('treeitem', { name: 'src' })
	).toBeVisible();
	await learnerContext.close();
});

test('a new scenario from a blank workspace: starting files whose tests run, a blank draft, an export validate accepts', async ({
	page
}, testInfo) => {
	test.setTimeout(180_000);
	const author = await openAuthorDialog(page);
	await author.getByRole('button', { name: 'New scenario from a blank workspace…' }).click();
	const confirm = page.locator('dialog.app-dialog[open]');
	await expect(confirm).toContainText('git repository are lost');
	await confirm.getByRole('button', { name: 'Start a new scenario' }).click();

	// The draft is blank and the workspace holds the starting files.
	await expect(author).toBeVisible({ timeout: 30_000 });
	await expect(author.getByLabel('Id (kebab-case)')).toHaveValue('my-scenario');
	const tree = page.getByRole('tree', { name: 'Workspace files' });
	await expect(tree.getByRole('treeitem', { name: 'tests' })).toBeVisible();
	await expect(tree.getByRole('treeitem', { name: 'src' })).toBeVisible();
	await expect(tree.getByRole('treeitem', { name: 'auth' })).toHaveCount(0);

	await author.getByLabel('Id (kebab-case)').fill('greetings');
	await author.getByLabel('Title').fill('Greetings');
	const downloadPromise = page.waitForEvent('download');
	await author.getByRole('button', { name: 'Export scenario' }).click();
	const download = await downloadPromise;
	const zipPath = testInfo.outputPath('greetings.zip');
	await download.saveAs(zipPath);
	const entries = unzipSync(new Uint8Array(await readFile(zipPath)));
	expect(Object.keys(entries).sort()).toEqual(
		expect.arrayContaining([
			'greetings/scenario.yaml',
			'greetings/files/.orchestration/active_intents.yaml',
			'greetings/files/package.json',
			'greetings/files/src/greet.ts',
			'greetings/files/tests/greet.test.ts'
		])
	);
	// threadline validate accepts the exported folder as it is (exit 0).
	const folder = testInfo.outputPath('unzipped');
	for (const [name, bytes] of Object.entries(entries)) {
		if (name.endsWith('/')) continue;
		await mkdir(dirname(`${folder}/${name}`), { recursive: true });
		await writeFile(`${folder}/${name}`, bytes);
	}
	execFileSync('node', ['bin/threadline.js', 'validate', `${folder}/greetings`], {
		encoding: 'utf8'
	});
	await author.getByRole('button', { name: 'Close', exact: true }).first().click();

	// The starting tests run offline.
	await runInTerminal(page, 'npm test');
	await expect.poll(() => terminalText(page), { timeout: 30_000 }).toContain('# pass 1');
});
