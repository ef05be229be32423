import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { readFile } from 'node:fs/promises';
import { openFile, openIde, runInTerminal, terminalText, treeItem } from './ide-helpers.js';

test.describe('the IDE on the default scenario', () => {
	test('lists the scenario files, is cross-origin isolated and has no serious accessibility violations', async ({
		page
	}) => {
		await openIde(page, 'jwt-auth');
		for (const name of ['src', 'tests', 'README.md', 'package.json']) {
			await expect(treeItem(page, name)).toBeVisible();
		}
		await expect(page.getByRole('treeitem', { name: '.orchestration (read-only)' })).toBeVisible();
		await expect(page.getByTestId('sandbox-kind')).toHaveText('Offline sandbox');
		expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(true);
		// The agent column loads lazily: check the page with it in place.
		await expect(page.getByLabel('Message to the agent')).toBeVisible({ timeout: 30_000 });
		const results = await new AxeBuilder({ page })
			.exclude('.monaco-editor')
			.exclude('.xterm')
			.analyze();
		const serious = results.violations.filter(
			(violation) => violation.impact === 'serious' || violation.impact === 'critical'
		);
		expect(
			serious.map(
				(violation) =>
					`${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`
			)
		).toEqual([]);
	});

	test('Monaco runs the TypeScript worker: a type error shows a diagnostic', async ({ page }) => {
		await openIde(page);
		await openFile(page, 'src/auth/login.ts');
		await page.locator('.monaco-editor .view-lines').first().click();
		await page.keyboard.press('Control+End');
		await page.keyboard.type('\nexport const broken: number = "not a number";');
		await expect(page.locator('.monaco-editor .squiggly-error').first()).toBeVisible({
			timeout: 30_000
		});
		await expect(page.getByRole('tab', { name: /login\.ts/ })).toContainText('●');
	});

	test('the terminal runs commands and files it creates appear in the tree', async ({ page }) => {
		await openIde(page);
		await runInTerminal(page, 'echo hello > note.txt');
		await expect(treeItem(page, 'note.txt')).toBeVisible();
		await runInTerminal(page, 'ls');
		expect(await terminalText(page)).toContain('package.json');
		await runInTerminal(page, 'cat note.txt');
		expect(await terminalText(page)).toMatch(/cat note\.txt\s+hello/);
		await runInTerminal(page, 'grep -r "export function" src | head -3');
		expect(await terminalText(page)).toMatch(/src\/\S+\.ts:export function/);
	});

	test('Ctrl+C stops a runaway loop and the terminal keeps working', async ({ page }) => {
		await openIde(page);
		await runInTerminal(page, 'while true; do :; done', { wait: false });
		await page.waitForTimeout(1_000);
		// The page stays responsive while the loop runs in its Worker.
		expect(await page.evaluate(() => 1 + 1)).toBe(2);
		await page.keyboard.press('Control+C');
		await expect.poll(() => terminalText(page)).toContain('^C');
		await runInTerminal(page, 'echo still-alive');
		expect(await terminalText(page)).toContain('still-alive');
	});

	test('edits and shell-made files survive a reload; reset restores the original files', async ({
		page
	}) => {
		// A reload and a reset each restart the sandbox: slow on a shared, loaded machine.
		test.setTimeout(90_000);
		await openIde(page);
		await openFile(page, 'README.md');
		await page.locator('.monaco-editor .view-lines').first().click();
		await page.keyboard.press('Control+Home');
		await page.keyboard.type('Edited by a person. ');
		await page.keyboard.press('Control+S');
		await expect(page.getByRole('tab', { name: /README\.md/ })).not.toContainText('●');
		await runInTerminal(page, 'echo kept > note.txt');
		await expect(treeItem(page, 'note.txt')).toBeVisible();

		await page.reload();
		await expect(page.locator('.xterm-rows')).toContainText('workspace $', { timeout: 30_000 });
		await expect(treeItem(page, 'note.txt')).toBeVisible();
		await runInTerminal(page, 'head -c 40 README.md');
		expect(await terminalText(page)).toContain('Edited by a person.');

		await page.getByRole('button', { name: 'Reset scenario' }).click();
		await inAppDialog(page).getByRole('button', { name: 'Reset' }).click();
		await expect(
			page.getByRole('status').filter({ hasText: 'reset to its original files' })
		).toBeVisible({ timeout: 30_000 });
		await expect(treeItem(page, 'note.txt')).toHaveCount(0);
		await expect(page.locator('.xterm-rows')).toContainText('workspace $', { timeout: 30_000 });
		await runInTerminal(page, 'clear');
		await runInTerminal(page, 'head -c 40 README.md');
		expect(await terminalText(page)).not.toContain('Edited by a person.');
	});

	test('exports the workspace as a zip with every file', async ({ page }) => {
		await openIde(page);
		await runInTerminal(page, 'echo exported > note.txt');
		const downloadPromise = page.waitForEvent('download');
		await page.getByRole('button', { name: 'Export zip' }).click();
		const download = await downloadPromise;
		expect(download.suggestedFilename()).toBe('jwt-auth-workspace.zip');
		const entries = unzipSync(new Uint8Array(await readFile((await download.path()) as string)));
		expect(Object.keys(entries)).toEqual(
			expect.arrayContaining([
				'jwt-auth/src/auth/login.ts',
				'jwt-auth/.orchestration/active_intents.yaml',
				'jwt-auth/note.txt'
			])
		);
		expect(new TextDecoder().decode(entries['jwt-auth/note.txt'])).toBe('exported\n');
	});

	test('the terminal cannot change .orchestration/: the change is refused, the rest kept', async ({
		page
	}) => {
		await openIde(page);
		// Short enough not to wrap in the terminal (the helper waits for the typed line).
		await runInTerminal(page, 'echo forged > .orchestration/AGENT.md; echo k > kept.txt');
		await expect(
			page.getByRole('status').filter({ hasText: 'Refused .orchestration/AGENT.md' })
		).toBeVisible();
		await expect(treeItem(page, 'kept.txt')).toBeVisible();
		await runInTerminal(page, 'head -c 60 .orchestration/AGENT.md');
		expect(await terminalText(page)).not.toMatch(/\$ head[^\n]*\n\s*forged/);
	});
});

test.describe('the file tree', () => {
	test('creates, renames and deletes files from the keyboard-accessible tree', async ({ page }) => {
		await openIde(page);
		await page.getByRole('button', { name: 'New file' }).click();
		await answerPrompt(page, 'notes/todo.md');
		await expect(treeItem(page, 'todo.md')).toBeVisible();
		await expect(page.getByRole('tab', { name: /todo\.md/ })).toBeVisible();

		await treeItem(page, 'todo.md').focus();
		await page.keyboard.press('F2');
		await answerPrompt(page, 'notes/done.md');
		await expect(treeItem(page, 'done.md')).toBeVisible();
		await expect(treeItem(page, 'todo.md')).toHaveCount(0);

		await treeItem(page, 'done.md').focus();
		await page.keyboard.press('Delete');
		await inAppDialog(page).getByRole('button', { name: 'Delete' }).click();
		await expect(treeItem(page, 'done.md')).toHaveCount(0);
		await runInTerminal(page, 'ls notes');
		expect(await terminalText(page)).not.toContain('done.md');
	});

	test('refuses to create files under .orchestration/ with a clear message', async ({ page }) => {
		await openIde(page);
		await page.getByRole('button', { name: 'New file' }).click();
		await answerPrompt(page, '.orchestration/sneaky.md');
		await expect(page.getByRole('alert')).toContainText('.orchestration/sneaky.md is protected');
	});

	test('imports a zip as the workspace', async ({ page }) => {
		await openIde(page);
		const { zipSync, strToU8 } = await import('fflate');
		const zip = zipSync({
			'project/src/imported.ts': strToU8('export const imported = true;\n'),
			'project/.orchestration/active_intents.yaml': strToU8('active_intents: []\n')
		});
		await page.locator('input[type=file][accept*="zip"]').setInputFiles({
			name: 'project.zip',
			mimeType: 'application/zip',
			buffer: Buffer.from(zip)
		});
		await inAppDialog(page).getByRole('button', { name: 'Import' }).click();
		await expect(
			page.getByRole('status').filter({ hasText: 'Imported 2 files from project.zip' })
		).toBeVisible({ timeout: 30_000 });
		await expect(treeItem(page, 'src')).toBeVisible();
		await expect(treeItem(page, 'README.md')).toHaveCount(0);
	});
});

/** The IDE's own confirm/prompt dialog (it replaced the browser's confirm() and prompt()). */
function inAppDialog(page: Page) {
	return page.locator('dialog.app-dialog[open]');
}

async function answerPrompt(page: Page, text: string): Promise<void> {
	const dialog = inAppDialog(page);
	await expect(dialog).toBeVisible();
	await dialog.getByRole('textbox').fill(text);
	await dialog.getByRole('textbox').press('Enter');
	await expect(dialog).toBeHidden();
}
