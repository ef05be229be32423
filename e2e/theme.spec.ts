import { expect, test } from '@playwright/test';
import { seriousViolations } from './accessibility.js';
import { openWithoutBrief } from './ide-helpers.js';

// Issue 8: light and dark themes follow the system (Monaco and xterm included), with axe clean in
// both, at the desktop, laptop and phone sizes the learner flow was tried at.

const viewports = [
	{ name: 'desktop', width: 1440, height: 900 },
	{ name: 'laptop', width: 1280, height: 720 },
	{ name: 'phone', width: 390, height: 844 }
] as const;

const expected = {
	light: { page: 'rgb(255, 255, 255)', monaco: 'vs', terminal: 'rgb(255, 255, 255)' },
	dark: { page: 'rgb(30, 31, 36)', monaco: 'vs-dark', terminal: 'rgb(22, 24, 29)' }
} as const;

for (const viewport of viewports) {
	for (const scheme of ['light', 'dark'] as const) {
		test.describe(`${viewport.name} (${viewport.width}×${viewport.height}), ${scheme}`, () => {
			test.use({
				viewport: { width: viewport.width, height: viewport.height },
				colorScheme: scheme
			});

			test('page, editor and terminal use the theme; axe finds nothing serious', async ({
				page
			}) => {
				await openWithoutBrief(page);
				const onPhone = viewport.name === 'phone';
				const switcher = page.getByRole('navigation', { name: 'Show pane' });

				expect(
					await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)
				).toBe(expected[scheme].page);

				if (onPhone) await switcher.getByRole('button', { name: 'Terminal' }).click();
				await expect(page.locator('.xterm-rows')).toContainText('workspace $', {
					timeout: 30_000
				});
				await expect(page.locator('.terminal-pane')).toHaveCSS(
					'background-color',
					expected[scheme].terminal
				);
				await expect(page.locator('.xterm-scrollable-element').first()).toHaveCSS(
					'background-color',
					expected[scheme].terminal
				);

				if (onPhone) await switcher.getByRole('button', { name: 'Files' }).click();
				await page
					.getByRole('tree', { name: 'Workspace files' })
					.getByRole('treeitem', { name: 'README.md', exact: true })
					.click();
				const editor = page.locator('.monaco-editor').first();
				await expect(editor.locator('.view-lines')).toContainText('Acme login service', {
					timeout: 30_000
				});
				await expect(editor).toHaveClass(new RegExp(`(^|\\s)${expected[scheme].monaco}(\\s|$)`));

				expect(await seriousViolations(page)).toEqual([]);
			});
		});
	}
}

test.describe('switching the system theme while the IDE is open', () => {
	test.use({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });

	test('page, Monaco and xterm follow without a reload', async ({ page }) => {
		await openWithoutBrief(page);
		await expect(page.locator('.xterm-rows')).toContainText('workspace $', { timeout: 30_000 });
		await page
			.getByRole('tree', { name: 'Workspace files' })
			.getByRole('treeitem', { name: 'README.md', exact: true })
			.click();
		const editor = page.locator('.monaco-editor').first();
		await expect(editor).toHaveClass(/(^|\s)vs-dark(\s|$)/, { timeout: 30_000 });

		await page.emulateMedia({ colorScheme: 'light' });
		await expect(editor).toHaveClass(/(^|\s)vs(\s|$)/);
		await expect(page.locator('.xterm-scrollable-element').first()).toHaveCSS(
			'background-color',
			expected.light.terminal
		);
		expect(
			await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)
		).toBe(expected.light.page);

		await page.emulateMedia({ colorScheme: 'dark' });
		await expect(editor).toHaveClass(/(^|\s)vs-dark(\s|$)/);
		await expect(page.locator('.xterm-scrollable-element').first()).toHaveCSS(
			'background-color',
			expected.dark.terminal
		);
	});
});

test.describe('dialogs and the grader’s desk in the light theme', () => {
	test.use({ viewport: { width: 1280, height: 720 }, colorScheme: 'light' });

	test('the brief, Settings and /grade have no serious axe findings', async ({ page }) => {
		await openWithoutBrief(page);
		const actions = page.getByRole('navigation', { name: 'Scenario actions' });
		await actions.getByRole('button', { name: 'Brief', exact: true }).click();
		const brief = page.getByRole('dialog').filter({ hasText: 'JWT' }).first();
		await expect(brief).toBeVisible();
		expect(await seriousViolations(page)).toEqual([]);
		await page.keyboard.press('Escape');
		await expect(brief).toBeHidden();

		await page.getByRole('button', { name: 'Settings', exact: true }).click();
		const settings = page.getByRole('dialog', { name: 'Settings' });
		await expect(settings).toBeVisible();
		await settings.getByRole('button', { name: 'Test connection' }).click();
		await expect(settings.getByTestId('connection-test-outcome')).toContainText(
			'needs no connection'
		);
		expect(await seriousViolations(page)).toEqual([]);
		await settings.getByRole('button', { name: 'Cancel' }).click();

		await page.goto('/grade');
		await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
		expect(
			await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)
		).toBe(expected.light.page);
		expect(await seriousViolations(page)).toEqual([]);
	});
});
