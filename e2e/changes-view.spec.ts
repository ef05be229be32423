import { expect, test, type Locator, type Page } from '@playwright/test';
import { seriousViolations } from './accessibility.js';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startFakeOpenAIServer, type FakeOpenAIServer } from './fixtures/fake-openai-server.js';
import { openFile, openIde, runInTerminal, treeItem } from './ide-helpers.js';

/**
 * Issue 8: what the agent changed is easy to see (tree marks, the Changes view, full-width
 * diffs, the editor follows the agent), a checkpoint restore is a recorded change that still
 * verifies, and files are found like in an editor (Ctrl+P, Ctrl+Shift+F) wherever the focus is.
 */

const projectRoot = fileURLToPath(new URL('../', import.meta.url));
const runFile = promisify(execFile);
const apiKey = 'sk-threadline-e2e-changes-0123456789';
let server: FakeOpenAIServer;

test.beforeAll(async () => {
	server = await startFakeOpenAIServer();
});

test.afterAll(async () => {
	await server?.close();
});

function agentRegion(page: Page): Locator {
	return page.getByRole('region', { name: 'Agent', exact: true });
}

async function chooseFakeModel(page: Page): Promise<void> {
	await page.getByRole('button', { name: 'Settings', exact: true }).click();
	const settings = page.getByRole('dialog', { name: 'Settings' });
	await settings.getByLabel('Provider').selectOption({ label: 'OpenAI-compatible' });
	await settings.getByLabel('Model').fill('fake-model');
	await settings.getByLabel('API key').fill(apiKey);
	await settings.getByLabel('Base URL').fill(server.url);
	await settings.getByRole('button', { name: 'Save' }).click();
	await expect(settings).toBeHidden();
}

async function cliVerify(zipPath: string): Promise<{ ok: boolean; text: string }> {
	try {
		const result = await runFile('node', ['bin/threadline.js', 'verify', zipPath], {
			cwd: projectRoot
		});
		return { ok: true, text: result.stdout };
	} catch (error) {
		const failed = error as { stdout?: string; stderr?: string };
		return { ok: false, text: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
	}
}

const jwtSource = 'export function sign(payload: string): string {\n\treturn payload;\n}\n';

test('an agent write is marked, listed, shown full width; a checkpoint restore is recorded and the export verifies', async ({
	page
}, testInfo) => {
	test.setTimeout(180_000);
	await openIde(page, 'jwt-auth');
	await chooseFakeModel(page);
	server.enqueue(
		{
			toolCalls: [
				{ id: 'c-select', name: 'select_active_intent', arguments: { intent_id: 'INT-001' } }
			]
		},
		{
			toolCalls: [
				{
					id: 'c-write',
					name: 'write_to_file',
					arguments: {
						path: 'src/auth/jwt.ts',
						content: jwtSource,
						intent_id: 'INT-001',
						mutation_class: 'INTENT_EVOLUTION'
					}
				}
			]
		},
		{ text: 'The JWT module is written.' }
	);
	const composer = page.getByRole('textbox', { name: 'Message to the agent' });
	await composer.fill('Write src/auth/jwt.ts.');
	await composer.press('Enter');
	const approval = page.getByRole('dialog', { name: 'The agent wants to change files' });
	await expect(approval).toBeVisible({ timeout: 30_000 });
	await approval.getByRole('button', { name: 'Approve', exact: true }).click();
	await expect(agentRegion(page)).toContainText('The JWT module is written.', { timeout: 30_000 });

	// The editor followed the agent: the new file is open, and the tree shows where it is.
	await expect(page.getByRole('tab', { name: 'jwt.ts' })).toHaveAttribute('aria-selected', 'true');
	await expect(treeItem(page, 'auth')).toHaveAttribute('aria-expanded', 'true');
	await expect(treeItem(page, 'jwt.ts')).toHaveAttribute('data-change', 'new');
	await expect(treeItem(page, 'jwt.ts')).toHaveAccessibleDescription('new file in this session');
	await expect(treeItem(page, 'src')).toHaveAttribute('data-change', 'inside');

	// A person's change from the terminal is listed too.
	await runInTerminal(page, 'echo "by hand" >> README.md');
	await expect(treeItem(page, 'README.md')).toHaveAttribute('data-change', 'modified');
	// A deleted file stays in the tree, struck through and marked, and shows what was removed.
	await runInTerminal(page, 'rm src/auth/password.ts');
	const deletedRow = treeItem(page, 'password.ts (deleted)');
	await expect(deletedRow).toHaveAttribute('data-change', 'deleted');
	await expect(deletedRow).toHaveAccessibleDescription('deleted in this session');

	await page.getByRole('tab', { name: 'Changes', exact: true }).click();
	const changed = page.getByRole('list', { name: 'Changed files' });
	await expect(changed.getByRole('listitem')).toHaveCount(3);
	await changed
		.getByRole('button', { name: /src\/auth\/jwt\.ts \(new file, by the agent\)/ })
		.click();
	const diff = page.getByTestId('change-diff');
	await expect(diff).toBeVisible();
	await expect(diff.locator('.monaco-diff-editor')).toBeVisible({ timeout: 30_000 });
	await expect(diff).toContainText('sign(payload');
	// Full width: the diff fills the editor area, not the narrow right column.
	const editorArea = await page.locator('#editor-panel').boundingBox();
	const diffBox = await diff.boundingBox();
	expect(diffBox!.width).toBeGreaterThan(editorArea!.width * 0.95);
	expect(diffBox!.width).toBeGreaterThan(600);

	// The Changes tab, the tree's marks and the diff tab pass axe.
	expect(await seriousViolations(page)).toEqual([]);

	await deletedRow.click();
	await expect(diff).toContainText('Deleted file: src/auth/password.ts', { timeout: 30_000 });

	// Keyboard: the modified README opens its diff from the list with Enter.
	await changed.getByRole('button', { name: /README\.md \(modified, by you\)/ }).focus();
	await page.keyboard.press('Enter');
	await expect(page.getByRole('tab', { name: /README\.md/ }).first()).toBeVisible();
	await expect(diff).toContainText('by hand', { timeout: 30_000 });

	// The tool card shows the same change.
	await page.getByRole('tab', { name: 'Agent', exact: true }).click();
	await agentRegion(page)
		.getByRole('button', { name: /Show diff/ })
		.first()
		.click();
	await expect(diff).toContainText('(event #');
	await expect(diff).toContainText('sign(payload');

	// Restore to the start of the session: asked in the app's dialog, recorded as the person's.
	await page.getByRole('tab', { name: 'Changes', exact: true }).click();
	const checkpoints = page.getByRole('list', { name: 'Checkpoints' });
	await checkpoints
		.getByRole('listitem')
		.filter({ hasText: 'Start of the session' })
		.getByRole('button', { name: /Restore to here/ })
		.click();
	const confirm = page.getByRole('dialog', { name: /Restore to event #/ });
	await expect(confirm).toContainText('2 files written back, 1 file deleted');
	await confirm.getByRole('button', { name: 'Restore', exact: true }).click();
	await expect(page.getByText(/Restored the workspace to event #\d+: 3 files changed/)).toBeVisible(
		{
			timeout: 30_000
		}
	);
	await expect(treeItem(page, 'jwt.ts')).toHaveCount(0);
	await expect(treeItem(page, 'password.ts')).toBeVisible();
	await expect(deletedRow).toHaveCount(0);
	await expect(treeItem(page, 'README.md')).not.toHaveAttribute('data-change');
	await expect(page.getByText('No file changed yet.')).toBeVisible();
	await openFile(page, 'README.md');
	await expect(page.locator('#editor-panel .view-lines')).toContainText('#');
	await expect(page.locator('#editor-panel .view-lines')).not.toContainText('by hand');

	// The ledger stays true: the export verifies with the CLI.
	await page.getByRole('tab', { name: 'Trace', exact: true }).click();
	await expect(page.getByRole('list', { name: 'Ledger events, newest first' })).toContainText(
		'checkpoint-restore'
	);
	const exportPath = testInfo.outputPath('restored-orchestration.zip');
	const download = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Export .orchestration' }).click();
	await (await download).saveAs(exportPath);
	const verified = await cliVerify(exportPath);
	expect(verified.text).not.toContain('FAIL');
	expect(verified.ok).toBe(true);
});

test('Quick Open and search across files work from the editor and the terminal; Esc returns focus', async ({
	page
}) => {
	test.setTimeout(120_000);
	await openIde(page, 'jwt-auth');

	// From the terminal: Ctrl+P, then Esc returns the focus to the terminal.
	const terminal = page.getByRole('textbox', { name: 'Terminal input' });
	await terminal.focus();
	await page.keyboard.press('Control+p');
	const quickOpen = page.getByRole('dialog', { name: 'Go to file' });
	await expect(quickOpen).toBeVisible();
	await expect(quickOpen.getByRole('combobox', { name: 'File name' })).toBeFocused();
	await page.keyboard.press('Escape');
	await expect(quickOpen).toBeHidden();
	await expect(terminal).toBeFocused();

	// From Monaco: Ctrl+P is not swallowed by the editor; fuzzy match, arrows and Enter.
	await openFile(page, 'README.md');
	await page.locator('#editor-panel .monaco-editor textarea').first().focus();
	await page.keyboard.press('Control+p');
	await expect(quickOpen).toBeVisible();
	await page.keyboard.type('reqses');
	await expect(quickOpen.getByRole('option').first()).toContainText(
		'src/middleware/require-session.ts'
	);
	expect(await seriousViolations(page)).toEqual([]);
	await page.keyboard.press('Enter');
	await expect(quickOpen).toBeHidden();
	await expect(page.getByRole('tab', { name: 'require-session.ts' })).toHaveAttribute(
		'aria-selected',
		'true'
	);

	// Search across files from the terminal: the result opens the file at its line.
	await terminal.focus();
	await page.keyboard.press('Control+Shift+F');
	const search = page.getByRole('dialog', { name: 'Search in files' });
	await expect(search).toBeVisible();
	await page.keyboard.type('findUserByName(name)');
	const result = search.getByRole('option', { name: /src\/auth\/login\.ts:11/ });
	await expect(result).toBeVisible({ timeout: 30_000 });
	await expect(search.getByRole('status')).toContainText('1 match in 1 file');
	expect(await seriousViolations(page)).toEqual([]);
	await page.keyboard.press('Enter');
	await expect(search).toBeHidden();
	await expect(page.getByRole('tab', { name: 'login.ts' })).toHaveAttribute(
		'aria-selected',
		'true'
	);
	await expect(page.locator('#editor-panel .line-numbers.active-line-number')).toHaveText('11', {
		timeout: 30_000
	});

	// A regular expression (RE2) and a clear error for one RE2 does not support.
	await page.keyboard.press('Control+Shift+F');
	await expect(search).toBeVisible();
	await search.getByRole('checkbox', { name: /Regular expression/ }).check();
	await search.getByRole('combobox', { name: 'Search text' }).fill('(?=x)');
	await expect(search.getByRole('status')).toContainText('RE2', { timeout: 30_000 });
	// Tab stays inside the dialog; Esc closes it and gives the focus back to the editor.
	await page.keyboard.press('Tab');
	await page.keyboard.press('Tab');
	await page.keyboard.press('Tab');
	await expect(search.getByRole('combobox', { name: 'Search text' })).toBeFocused();
	await page.keyboard.press('Escape');
	await expect(search).toBeHidden();
	await expect
		.poll(() =>
			page.evaluate(() => document.activeElement?.closest('#editor-panel .monaco-editor') !== null)
		)
		.toBe(true);
});
