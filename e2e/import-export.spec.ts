import { expect, test, type Page } from '@playwright/test';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openIde, runInTerminal } from './ide-helpers.js';

/**
 * Issue 8, point 2: importing an "Export .orchestration" zip restores its ledger. In-app Verify
 * then says what `threadline verify` says of the same zip; a tampered one is read-only.
 */

const projectRoot = fileURLToPath(new URL('../', import.meta.url));
const runFile = promisify(execFile);

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

async function exportOrchestration(page: Page, path: string): Promise<void> {
	await page.getByRole('tab', { name: 'Trace', exact: true }).click();
	const download = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Export .orchestration' }).click();
	await (await download).saveAs(path);
}

async function importZip(page: Page, path: string): Promise<void> {
	await page.locator('input[type="file"][accept*="zip"]').setInputFiles(path);
	const confirm = page.getByRole('dialog', { name: /Replace this workspace/ });
	await confirm.getByRole('button', { name: 'Import' }).click();
	await expect(page.getByTestId('import-notice')).toBeVisible({ timeout: 30_000 });
}

async function verifyInApp(page: Page) {
	await page.getByRole('tab', { name: 'Trace', exact: true }).click();
	await page.getByRole('button', { name: 'Verify', exact: true }).click();
	return page.locator('.verify-result');
}

test('an imported export keeps its ledger; a tampered one fails verify like the CLI and is read-only', async ({
	page,
	browser
}, testInfo) => {
	test.setTimeout(180_000);
	await openIde(page, 'jwt-auth');
	// A person's change, so the history is more than the starting snapshot.
	await runInTerminal(page, 'echo "written before the export" > notes.txt');
	const exportPath = testInfo.outputPath('jwt-auth-orchestration.zip');
	await exportOrchestration(page, exportPath);
	expect((await cliVerify(exportPath)).ok).toBe(true);

	// A tampered copy: one file changed after its record, as a forger would.
	const entries = unzipSync(new Uint8Array(await readFile(exportPath)));
	const login = Object.keys(entries).find((name) => name.endsWith('src/auth/login.ts'));
	expect(login).toBeDefined();
	entries[login!] = strToU8(`${strFromU8(entries[login!]!)}// changed after the export\n`);
	const tamperedPath = testInfo.outputPath('tampered.zip');
	await writeFile(tamperedPath, zipSync(entries));
	const cli = await cliVerify(tamperedPath);
	expect(cli.ok).toBe(false);
	expect(cli.text).toContain('src/auth/login.ts');

	// In another browser profile (a grader's, a classmate's): import the good export.
	const context = await browser.newContext();
	const other = await context.newPage();
	await openIde(other, 'jwt-auth');
	await importZip(other, exportPath);
	await expect(other.getByTestId('import-notice')).toContainText('verified');
	await other.getByRole('tab', { name: 'Trace', exact: true }).click();
	// The history came with it: the person's terminal change is in the restored trace.
	await expect(other.getByRole('list', { name: 'Ledger events, newest first' })).toContainText(
		'notes.txt'
	);
	let result = await verifyInApp(other);
	await expect(result).toContainText('Verified', { timeout: 30_000 });

	// The tampered one: shown as failing, with the same failure the CLI names, and read-only.
	await importZip(other, tamperedPath);
	await expect(other.getByTestId('import-notice')).toContainText('failed verification');
	await expect(other.getByTestId('import-notice')).toContainText('src/auth/login.ts');
	result = await verifyInApp(other);
	await expect(result).toContainText('src/auth/login.ts', { timeout: 30_000 });
	await expect(result).not.toContainText('Verified: the ledger is intact');
	// It stays so after a reload.
	await other.reload();
	await expect(other.getByTestId('import-notice')).toContainText('failed verification', {
		timeout: 30_000
	});
	result = await verifyInApp(other);
	await expect(result).toContainText('src/auth/login.ts', { timeout: 30_000 });
	await context.close();
});
