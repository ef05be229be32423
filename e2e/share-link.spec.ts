import { expect, test } from '@playwright/test';
import { openIde, runInTerminal, terminalText } from './ide-helpers.js';

/**
 * Issue 12: "Share" puts the workspace in the URL fragment; a fresh browser context opens it as an
 * untrusted scenario with the same files, and the link fits the 8 KB budget.
 */
test('a share link of jwt-auth opens the same workspace in a fresh context', async ({
	page,
	browser
}) => {
	test.setTimeout(180_000);
	await openIde(page, 'jwt-auth');
	await page.getByRole('button', { name: 'Share', exact: true }).click();
	const dialog = page.getByRole('dialog', { name: 'Share this workspace' });
	await expect(dialog).toBeVisible();
	const url = await dialog.getByLabel(/Share link/).inputValue();
	expect(url).toContain('#share=v1.');
	expect(url.length).toBeLessThanOrEqual(8 * 1024);
	expect(url).not.toContain('sk-');

	const fresh = await browser.newContext();
	try {
		const other = await fresh.newPage();
		await other.goto(url);
		await expect(other.getByRole('tree', { name: 'Workspace files' })).toBeVisible({
			timeout: 30_000
		});
		await expect(other.getByText('Untrusted scenario')).toBeVisible();
		await expect(
			other
				.getByRole('tree', { name: 'Workspace files' })
				.getByRole('treeitem', { name: 'src', exact: true })
		).toBeVisible();
		const brief = other.getByRole('dialog');
		await expect(brief).toBeVisible({ timeout: 30_000 });
		await expect(brief).toContainText('JWT');
	} finally {
		await fresh.close();
	}
});

test('a share link carries the history only when asked, and the recipient gets it verified', async ({
	page,
	browser
}) => {
	test.setTimeout(180_000);
	await openIde(page, 'jwt-auth');
	await runInTerminal(page, 'echo "// a shared note" >> README.md');
	await page.getByRole('button', { name: 'Share', exact: true }).click();
	const dialog = page.getByRole('dialog', { name: 'Share this workspace' });
	const withHistory = dialog.getByRole('checkbox', { name: /Include the history/ });
	await expect(withHistory).not.toBeChecked();
	const plainUrl = await dialog.getByLabel(/Share link/).inputValue();
	await withHistory.check();
	await expect(dialog).toContainText('and the history');
	const url = await dialog.getByLabel(/Share link/).inputValue();
	expect(url).not.toBe(plainUrl);
	expect(url.length).toBeLessThanOrEqual(32 * 1024);

	const fresh = await browser.newContext();
	try {
		const other = await fresh.newPage();
		await other.goto(url);
		const brief = other.getByRole('dialog');
		await expect(brief).toBeVisible({ timeout: 60_000 });
		await brief.getByRole('button', { name: 'Close', exact: true }).click();
		await expect(
			other.getByText(/Imported the shared history with its ledger \(\d+ events\): verified/)
		).toBeVisible({
			timeout: 30_000
		});
		await expect(other.locator('.xterm-rows')).toContainText('workspace $', { timeout: 30_000 });
		await runInTerminal(other, 'grep -c "a shared note" README.md');
		await expect.poll(() => terminalText(other)).toMatch(/^1$/m);
	} finally {
		await fresh.close();
	}
});

test('a damaged share link gives a clear error', async ({ page }) => {
	await page.goto('/#share=v1.AAAA');
	await expect(page.getByRole('heading', { name: 'The IDE could not start' })).toBeVisible({
		timeout: 30_000
	});
	await expect(page.getByText(/share link/i).first()).toBeVisible();
});
