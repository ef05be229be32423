import { expect, test, type Page } from '@playwright/test';
import { lastLine, openIde, terminalText } from './ide-helpers.js';

// Issue 9: the terminal behaves like one. Tab completes commands and paths and never moves focus
// out of the terminal; Shift+Tab, or Escape then Tab, leave it.

const terminalHasFocus = (page: Page) =>
	page.evaluate(() => document.activeElement?.closest('.terminal-pane') !== null);

test('Tab completes paths and commands and keeps focus; Esc then Tab and Shift+Tab leave', async ({
	page
}) => {
	await openIde(page, 'jwt-auth');
	const input = page.getByRole('textbox', { name: 'Terminal input' });
	await input.focus();

	// A unique path: completed with a space, focus stays.
	await page.keyboard.type('cat src/auth/pa');
	await page.keyboard.press('Tab');
	await expect.poll(() => lastLine(page)).toMatch(/\$ cat src\/auth\/password\.ts$/);
	expect(await terminalHasFocus(page)).toBe(true);
	await page.keyboard.press('Enter');
	await expect.poll(() => lastLine(page), { timeout: 30_000 }).toMatch(/\$$/);
	// The file was found (the screen shows its last rows, not the command).
	expect(await terminalText(page)).not.toContain('No such file');
	expect(await terminalText(page)).toContain('Compares every character');

	// Several matches: listed under the line, which is drawn again as it was.
	await page.keyboard.type('ls src/auth/');
	await page.keyboard.press('Tab');
	await expect.poll(() => terminalText(page)).toContain('session-store.ts');
	await expect.poll(() => lastLine(page)).toMatch(/\$ ls src\/auth\/$/);
	await page.keyboard.press('Enter');
	await expect.poll(() => lastLine(page), { timeout: 30_000 }).toMatch(/\$$/);

	// A command name in command position.
	await page.keyboard.type('hist');
	await page.keyboard.press('Tab');
	await expect.poll(() => lastLine(page)).toMatch(/\$ history$/);
	await page.keyboard.press('Enter');
	await expect.poll(() => terminalText(page)).toContain('cat src/auth/password.ts');
	await expect.poll(() => lastLine(page), { timeout: 30_000 }).toMatch(/\$$/);
	expect(await terminalHasFocus(page)).toBe(true);

	// Escape then Tab: focus moves on, out of the terminal.
	await page.keyboard.press('Escape');
	await page.keyboard.press('Tab');
	expect(await terminalHasFocus(page)).toBe(false);

	// Shift+Tab from the terminal goes back out of it too.
	await input.focus();
	await page.keyboard.press('Shift+Tab');
	expect(await terminalHasFocus(page)).toBe(false);
});

test('keys typed while the sandbox starts are kept and run once the shell is ready', async ({
	page
}) => {
	// Hold the shell Worker's script back, so the pane is still starting when the person types.
	let releaseShell: () => void = () => undefined;
	const shellHeld = new Promise<void>((resolve) => (releaseShell = resolve));
	await page.route('**/*local-sandbox.worker*', async (route) => {
		await shellHeld;
		await route.continue();
	});
	await page.addInitScript(() =>
		localStorage.setItem('threadline-brief-seen-built-in:jwt-auth', 'seen')
	);
	await page.goto('/?scenario=jwt-auth');
	const pane = page.getByRole('region', { name: 'Terminal' });
	await expect(pane.getByRole('status')).toHaveText('Starting the sandbox…', { timeout: 30_000 });
	await pane.focus();
	await page.keyboard.type('echo early-bird');
	await page.keyboard.press('Enter');
	releaseShell();
	await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/\n\s*early-bird/);
	await expect.poll(() => lastLine(page), { timeout: 30_000 }).toMatch(/\$$/);
	// Focus moved on to the terminal itself: the next keys need no click.
	await page.keyboard.type('echo after-load');
	await page.keyboard.press('Enter');
	await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/\n\s*after-load/);
});
