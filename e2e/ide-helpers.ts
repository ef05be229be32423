import { expect, type Page } from '@playwright/test';

/**
 * Opens a scenario with its brief marked as read, so the layout behind it is what is tested; waits
 * for the scenario picker to show it.
 */
export async function openWithoutBrief(page: Page, scenario = 'jwt-auth'): Promise<void> {
	await page.addInitScript(
		(key) => localStorage.setItem(key, 'seen'),
		`threadline-brief-seen-built-in:${scenario}`
	);
	await page.goto(`/?scenario=${encodeURIComponent(scenario)}`);
	await expect(page.getByRole('combobox', { name: 'Scenario' })).toHaveValue(scenario, {
		timeout: 30_000
	});
}

/** Opens a scenario and waits until the tree is listed and the terminal shows its prompt. */
export async function openIde(page: Page, scenario = 'jwt-auth'): Promise<void> {
	await page.goto(`/?scenario=${encodeURIComponent(scenario)}`);
	await expect(page.getByRole('tree', { name: 'Workspace files' })).toBeVisible({
		timeout: 30_000
	});
	await expect(page.locator('.xterm-rows')).toContainText('workspace $', { timeout: 30_000 });
	// A fresh browser shows the scenario brief first; a learner reads it, then closes it.
	const brief = page.getByRole('dialog');
	// It renders its markdown with lazily loaded libraries: on a cold first load this takes a while.
	await expect(brief).toBeVisible({ timeout: 30_000 });
	await brief.getByRole('button', { name: 'Close', exact: true }).click();
	await expect(brief).toBeHidden();
}

export function treeItem(page: Page, name: string) {
	return page
		.getByRole('tree', { name: 'Workspace files' })
		.getByRole('treeitem', { name, exact: true });
}

/** Expands folders and opens a file by clicking through the tree, as a person would. */
export async function openFile(page: Page, path: string): Promise<void> {
	const segments = path.split('/');
	for (const [index, segment] of segments.entries()) {
		const item = treeItem(page, segment);
		if (index < segments.length - 1) {
			if ((await item.getAttribute('aria-expanded')) !== 'true') await item.click();
		} else {
			await item.click();
		}
	}
	await expect(page.getByRole('tab', { name: segments.at(-1) })).toHaveAttribute(
		'aria-selected',
		'true'
	);
	await expect(page.locator('.monaco-editor').first()).toBeVisible({ timeout: 30_000 });
}

/**
 * Types a line into the terminal and waits until it finished: the last line on screen is a fresh
 * prompt again. The screen only shows the last rows, so assert on output right after the command.
 */
export async function runInTerminal(
	page: Page,
	line: string,
	options: { wait?: boolean } = {}
): Promise<void> {
	const terminal = page.getByRole('textbox', { name: 'Terminal input' });
	await terminal.focus();
	await page.keyboard.type(line);
	await expect.poll(() => lastLine(page)).toContain(line.slice(-20));
	await page.keyboard.press('Enter');
	if (options.wait !== false) {
		await expect.poll(() => lastLine(page), { timeout: 30_000 }).toMatch(/\$$/);
	}
}

export async function terminalText(page: Page): Promise<string> {
	return (await page.locator('.xterm-rows').innerText()).replace(/\u00a0/g, ' ');
}

/** The terminal's last non-empty row: the prompt and the line being typed, when one is live. */
export async function lastLine(page: Page): Promise<string> {
	const lines = (await terminalText(page))
		.split('\n')
		.map((text) => text.trimEnd())
		.filter(Boolean);
	return lines.at(-1) ?? '';
}
