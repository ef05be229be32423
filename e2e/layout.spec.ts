import { expect, test } from '@playwright/test';
import { seriousViolations } from './accessibility.js';
import { openWithoutBrief } from './ide-helpers.js';

// Issue 8's layout points: the top bar fits one row at 1280 px, the title is shown once, and a
// phone (390×844) shows one pane at a time with a switcher.

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

test.describe('at 1280×720, the approval modal and the right column', () => {
	test.use({ viewport: { width: 1280, height: 720 } });

	test('the answers and the keyboard hint are on screen however long the diff', async ({
		page
	}) => {
		await openWithoutBrief(page);
		const composer = page.getByRole('textbox', { name: 'Message to the agent' });
		await composer.fill('Run the demo.');
		await composer.press('Enter');
		const modal = page.getByRole('dialog', { name: 'The agent wants to change files' });
		await expect(modal).toBeVisible({ timeout: 60_000 });
		await expect(modal.getByText('Enter approves · Esc rejects')).toBeInViewport({ ratio: 1 });
		await expect(modal.getByRole('button', { name: 'Approve', exact: true })).toBeInViewport({
			ratio: 1
		});
		await expect(modal.getByRole('button', { name: 'Reject', exact: true })).toBeInViewport({
			ratio: 1
		});
		expect(await seriousViolations(page)).toEqual([]);
	});

	test('each right-column tab keeps its own scroll position; arrow keys move between tabs', async ({
		page
	}) => {
		await openWithoutBrief(page);
		const tabs = page.getByRole('tablist', { name: 'Right column' });
		const panel = page.locator('#right-panel');
		await tabs.getByRole('tab', { name: 'Intents', exact: true }).click();
		await expect(panel.getByText('INT-001').first()).toBeVisible({ timeout: 30_000 });
		const scrollable = await panel.evaluate(
			(element) => element.scrollHeight > element.clientHeight
		);
		// At 720 px the intents list is longer than the column; if it ever fits, this test must say so.
		expect(scrollable).toBe(true);
		await panel.evaluate((element) => (element.scrollTop = 120));
		await tabs.getByRole('tab', { name: 'Trace', exact: true }).click();
		await expect(panel).toHaveJSProperty('scrollTop', 0);
		await tabs.getByRole('tab', { name: 'Intents', exact: true }).click();
		await expect(panel).toHaveJSProperty('scrollTop', 120);

		// The tab pattern's keys: Left/Right/Home/End move focus and show the tab.
		await tabs.getByRole('tab', { name: 'Intents', exact: true }).focus();
		await page.keyboard.press('ArrowRight');
		await expect(tabs.getByRole('tab', { name: 'Changes', exact: true })).toBeFocused();
		await expect(tabs.getByRole('tab', { name: 'Changes', exact: true })).toHaveAttribute(
			'aria-selected',
			'true'
		);
		await page.keyboard.press('End');
		await expect(tabs.getByRole('tab', { name: 'Trace', exact: true })).toBeFocused();
		await page.keyboard.press('ArrowRight');
		await expect(tabs.getByRole('tab', { name: 'Agent', exact: true })).toBeFocused();
		await expect(page.getByRole('textbox', { name: 'Message to the agent' })).toBeVisible();
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

// Issue 29: phones from 360 to 430 px, the docked brief and the keyboard's ways out.
for (const width of [360, 390, 430]) {
	test.describe(`on a ${width} px phone`, () => {
		test.use({ viewport: { width, height: 844 } });

		test('nothing scrolls sideways; the actions are in a menu; hidden panes are inert', async ({
			page
		}) => {
			test.setTimeout(90_000);
			await openWithoutBrief(page);
			const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
			expect(await pageWidth()).toBeLessThanOrEqual(width);
			const actions = page.getByRole('navigation', { name: 'Scenario actions' });
			await expect(actions).toBeHidden();
			const menu = page.getByRole('button', { name: 'Menu' });
			await menu.click();
			await expect(menu).toHaveAttribute('aria-expanded', 'true');
			for (const name of ['Brief', 'Reset scenario', 'Export zip', 'Share']) {
				const box = await actions.getByRole('button', { name, exact: true }).boundingBox();
				expect(box!.x + box!.width, name).toBeLessThanOrEqual(width);
			}
			await page.keyboard.press('Escape');
			await expect(actions).toBeHidden();
			await expect(menu).toBeFocused();

			// The editor is shown: the tree behind it is inert, so Tab never reaches it.
			const tree = page.getByRole('tree', { name: 'Workspace files', includeHidden: true });
			expect(await tree.evaluate((element) => element.closest('[inert]') !== null)).toBe(true);

			// The brief takes the workbench's place, inside the screen, and Esc closes it.
			await menu.click();
			await actions.getByRole('button', { name: 'Brief', exact: true }).click();
			const brief = page.getByRole('dialog', { name: /JWT migration/ });
			await expect(brief).toBeVisible();
			const briefBox = await brief.boundingBox();
			expect(briefBox!.x).toBeGreaterThanOrEqual(0);
			expect(briefBox!.x + briefBox!.width).toBeLessThanOrEqual(width);
			expect(await pageWidth()).toBeLessThanOrEqual(width);
			expect(await seriousViolations(page)).toEqual([]);
			await page.keyboard.press('Escape');
			await expect(brief).toBeHidden();
		});
	});
}

test.describe('the brief and the keyboard at 1440×900', () => {
	test.use({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });

	test('the brief docks beside the workbench and Esc closes it from the terminal', async ({
		page
	}) => {
		test.setTimeout(90_000);
		await openWithoutBrief(page);
		await page.getByRole('button', { name: 'Brief', exact: true }).click();
		const brief = page.getByRole('dialog', { name: /JWT migration/ });
		await expect(brief).toBeVisible();
		const briefBox = (await brief.boundingBox())!;
		const workbenchBox = (await page.locator('main.workbench').boundingBox())!;
		// Beside, not over: the workbench ends where the brief starts.
		expect(workbenchBox.x + workbenchBox.width).toBeLessThanOrEqual(briefBox.x + 1);
		const composer = page.getByRole('textbox', { name: 'Message to the agent' });
		await expect(composer).toBeVisible({ timeout: 30_000 });
		expect((await composer.boundingBox())!.x + 10).toBeLessThan(briefBox.x);

		await expect(page.locator('.xterm-rows')).toContainText('workspace $', { timeout: 30_000 });
		const terminal = page.getByRole('textbox', { name: 'Terminal input' });
		await terminal.focus();
		// The way out of the terminal is shown and is the textbox's description.
		const hint = page.getByText('Tab completes here. To move focus: press Esc then Tab');
		await expect(hint).toBeVisible();
		await expect(terminal).toHaveAccessibleDescription(/press Esc then Tab/);
		await page.keyboard.press('Escape');
		await expect(brief).toBeHidden();
		expect(await seriousViolations(page)).toEqual([]);
	});
});
