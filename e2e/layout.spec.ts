import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

// Issue 8's layout points: the top bar fits one row at 1280 px, the title is shown once, and a
// phone (390×844) shows one pane at a time with a switcher.

async function openWithoutBrief(page: Page): Promise<void> {
	// The brief opens by itself on a first visit; these tests are about the layout behind it.
	await page.addInitScript(() =>
		localStorage.setItem('threadline-brief-seen-built-in:jwt-auth', 'seen')
	);
	await page.goto('/?scenario=jwt-auth');
	await expect(page.getByRole('combobox', { name: 'Scenario' })).toHaveValue('jwt-auth', {
		timeout: 30_000
	});
}

async function seriousViolations(page: Page): Promise<string[]> {
	const results = await new AxeBuilder({ page })
		.exclude('.monaco-editor')
		.exclude('.xterm')
		.analyze();
	return results.violations
		.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
		.map(
			(violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`
		);
}

test.describe('at 1280×720', () => {
	test.use({ viewport: { width: 1280, height: 720 } });

	test('the top bar is one row and the title shows once', async ({ page }) => {
		await openWithoutBrief(page);
		const bar = page.locator('header.top-bar');
		const actions = bar.getByRole('navigation', { name: 'Scenario actions' });
		await expect(actions.getByRole('button', { name: 'Share' })).toBeVisible();
		const barBox = await bar.boundingBox();
		const buttonBox = await actions.getByRole('button', { name: 'Brief' }).boundingBox();
		// One row: the bar is hardly taller than one of its buttons.
		expect(barBox!.height).toBeLessThan(buttonBox!.height * 2);
		// Every action is inside the viewport, none wrapped below or cut off at the right.
		for (const name of ['Brief', 'Reset scenario', 'Export zip', 'Import zip', 'Share']) {
			const box = await actions.getByRole('button', { name, exact: true }).boundingBox();
			expect(box!.x + box!.width, name).toBeLessThanOrEqual(1280);
			expect(box!.y, name).toBeLessThan(barBox!.y + barBox!.height);
		}
		// The title is the picker's selected option; the page heading is for screen readers only.
		await expect(
			page.getByRole('heading', { level: 1, name: 'JWT migration (TRP1 classic)' })
		).toHaveClass(/visually-hidden/);
		await expect(
			page.getByText('JWT migration (TRP1 classic)', { exact: true }).filter({ visible: true })
		).toHaveCount(1);
	});
});

test.describe('on a phone (390×844)', () => {
	test.use({ viewport: { width: 390, height: 844 } });

	test('one pane at a time, chosen with the switcher; opening a file shows the editor', async ({
		page
	}) => {
		await openWithoutBrief(page);
		const switcher = page.getByRole('navigation', { name: 'Show pane' });
		await expect(switcher).toBeVisible();
		const tree = page.getByRole('tree', { name: 'Workspace files' });
		const composer = page.getByRole('textbox', { name: 'Message to the agent' });

		await switcher.getByRole('button', { name: 'Files' }).click();
		await expect(switcher.getByRole('button', { name: 'Files' })).toHaveAttribute(
			'aria-pressed',
			'true'
		);
		await expect(tree).toBeVisible();
		// The tree uses the whole width: names are readable, not "…".
		expect((await tree.boundingBox())!.width).toBeGreaterThan(300);
		await expect(composer).toBeHidden();

		await switcher.getByRole('button', { name: 'Agent' }).click();
		await expect(composer).toBeVisible({ timeout: 30_000 });
		await expect(tree).toBeHidden();

		await switcher.getByRole('button', { name: 'Terminal' }).click();
		await expect(page.locator('.xterm-rows')).toContainText('workspace $', { timeout: 30_000 });

		await switcher.getByRole('button', { name: 'Files' }).click();
		await tree.getByRole('treeitem', { name: 'README.md', exact: true }).click();
		await expect(page.locator('.monaco-editor .view-lines').first()).toContainText(
			'Acme login service',
			{
				timeout: 30_000
			}
		);
		await expect(switcher.getByRole('button', { name: 'Editor' })).toHaveAttribute(
			'aria-pressed',
			'true'
		);
		expect(await seriousViolations(page)).toEqual([]);
	});
});
