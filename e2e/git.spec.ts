import { expect, test } from '@playwright/test';
import { openIde, runInTerminal, terminalText, treeItem } from './ide-helpers.js';

// Issue 9: git offline. A person's terminal runs git on isomorphic-git in the shell's Worker; the
// repository lives in IndexedDB beside the workspace, survives a reload and goes with a reset.

test('git init, add, commit and log in the terminal; the history survives a reload, not a reset', async ({
	page
}) => {
	await openIde(page, 'jwt-auth');
	await runInTerminal(page, 'git init');
	await expect.poll(() => terminalText(page)).toContain('Initialized empty Git repository');
	await runInTerminal(page, 'git add . && git commit -m "Starting point"');
	await expect
		.poll(() => terminalText(page))
		.toMatch(/\[main \(root-commit\) [0-9a-f]{7}\] Starting point/);
	// The repository is not a workspace folder: the tree has no .git.
	await expect(treeItem(page, '.git')).toHaveCount(0);

	await runInTerminal(page, 'clear');
	await runInTerminal(page, 'echo "// reviewed" >> src/auth/password.ts');
	await runInTerminal(page, 'git status -s');
	await expect.poll(() => terminalText(page)).toContain(' M src/auth/password.ts');

	await page.reload();
	await expect(page.locator('.xterm-rows')).toContainText('workspace $', { timeout: 30_000 });
	await runInTerminal(page, 'git log --oneline');
	await expect
		.poll(() => terminalText(page))
		.toMatch(/[0-9a-f]{7} \(HEAD -> main\) Starting point/);
	await runInTerminal(page, 'git restore src/auth/password.ts && git status');
	await expect.poll(() => terminalText(page)).toContain('nothing to commit, working tree clean');

	await page.getByRole('button', { name: 'Reset scenario' }).click();
	const dialog = page.locator('dialog.app-dialog[open]');
	await expect(dialog).toContainText('git repository');
	await dialog.getByRole('button', { name: 'Reset' }).click();
	await expect(
		page.getByRole('status').filter({ hasText: 'reset to its original files' })
	).toBeVisible({ timeout: 30_000 });
	await expect(page.locator('.xterm-rows')).toContainText('workspace $', { timeout: 30_000 });
	await runInTerminal(page, 'clear');
	await runInTerminal(page, 'git log');
	await expect.poll(() => terminalText(page)).toContain('not a git repository');
});
