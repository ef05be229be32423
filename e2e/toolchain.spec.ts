import { expect, test } from '@playwright/test';
import { openIde, runInTerminal, terminalText } from './ide-helpers.js';

test.describe('the offline toolchain', () => {
	test('npm test runs the jwt-auth tests in the terminal: the task’s test fails on the starting code', async ({
		page
	}) => {
		test.setTimeout(120_000);
		await openIde(page, 'jwt-auth');
		await runInTerminal(page, 'npm test');
		const text = await terminalText(page);
		// The screen keeps only the last rows (the npm header has scrolled away; long lines wrap).
		expect(text).toMatch(
			/FAIL\s+auth\/bearer\.test\.ts: Cannot find module '\.\.\/\.\.\/src\/auth\/jwt\.js'/
		);
		expect(text).toMatch(/ok\s+auth\/login\.test\.ts/);
		expect(text).toMatch(/ok\s+db\/users\.test\.ts/);
		expect(text).toContain('1 of 4 test file(s) failed');

		await runInTerminal(page, "node -e \"console.log(require('node:path').join('a', 'b'))\"");
		expect(await terminalText(page)).toMatch(/\na\/b\n/);
	});

	test('Verify intent shows each acceptance criterion’s result', async ({ page }) => {
		test.setTimeout(120_000);
		await openIde(page, 'jwt-auth');
		await page.getByRole('tab', { name: 'Intents', exact: true }).click();
		const auth = page.getByRole('article', { name: /INT-001/ });
		await auth.getByRole('button', { name: 'Verify intent' }).click();
		await expect(page.getByTestId('verify-summary-INT-001')).toHaveText(
			'2 of 2 runnable criteria fail',
			{ timeout: 60_000 }
		);
		const results = auth.getByRole('list', { name: 'Criteria of INT-001' });
		await expect(results.getByRole('listitem').first()).toContainText('FAIL');
		await results.getByText('npm test -- tests/auth').click();
		await expect(results.locator('pre').first()).toContainText('FAIL  auth/bearer.test.ts');

		const database = page.getByRole('article', { name: /INT-002/ });
		await database.getByRole('button', { name: 'Verify intent' }).click();
		await expect(page.getByTestId('verify-summary-INT-002')).toHaveText(
			'All 2 runnable criteria pass',
			{ timeout: 60_000 }
		);
	});
});
