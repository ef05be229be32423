import { expect, test, type Page } from '@playwright/test';
import { strToU8, zipSync } from 'fflate';
import { serveStaticFiles, type StaticFilesServer } from './fixtures/static-files-server.js';
import { seriousViolations } from './accessibility.js';
import { openFile, treeItem } from './ide-helpers.js';

/**
 * Issue 12, Steps: a scenario taught as numbered steps. Each step shows its part of the brief;
 * "Check step" runs its intents' criteria; "Show solution" (only where the instructor wrote one)
 * writes and removes files as the person's recorded change; "Reset step" puts the files back as
 * the step began; where the learner is survives a reload.
 */

const scenarioYaml = `id: stepped-exercise
title: A scenario in steps
summary: Two steps, one with a solution.
approval_policy: never
brief: |
  # Stepped exercise

  Work through the steps in the Steps tab.
steps:
  - title: Add the sum
    brief: |
      ## Add the sum

      Make \`add\` in \`src/math.ts\` return the sum of its arguments.
    intents: [INT-001]
    solution:
      files:
        src/math.ts: |
          export function add(a: number, b: number): number {
          	return a + b;
          }
      remove: [src/scratch.ts]
  - title: Write it down
    brief: |
      ## Write it down

      Say what \`add\` does in \`docs/add.md\`; nothing is checked here.
`;

const intentsYaml = `active_intents:
  - id: INT-001
    name: Sum
    status: IN_PROGRESS
    owned_scope: ["src/**"]
    acceptance_criteria:
      - description: "add returns the sum"
        run: "grep -q 'return a + b' src/math.ts"
`;

function scenarioZip(): Uint8Array {
	return zipSync({
		'stepped-exercise/scenario.yaml': strToU8(scenarioYaml),
		'stepped-exercise/files/.orchestration/active_intents.yaml': strToU8(intentsYaml),
		'stepped-exercise/files/src/math.ts': strToU8(
			'export function add(a: number, b: number): number {\n\treturn 0;\n}\n'
		),
		'stepped-exercise/files/src/scratch.ts': strToU8('// scratch\n')
	});
}

let host: StaticFilesServer;

test.beforeAll(async () => {
	const zip = scenarioZip();
	host = await serveStaticFiles(
		() => new Map([['/stepped.zip', { type: 'application/zip', body: zip }]])
	);
});

test.afterAll(async () => {
	await host?.close();
});

async function confirmDialog(page: Page, name: string | RegExp, button: string): Promise<void> {
	const dialog = page.getByRole('dialog', { name });
	await expect(dialog).toBeVisible({ timeout: 30_000 });
	await dialog.getByRole('button', { name: button, exact: true }).click();
	await expect(dialog).toBeHidden();
}

/** "Check step", with the consent an untrusted scenario's check asks for when it does. */
async function checkStep(page: Page): Promise<string> {
	const steps = page.locator('#right-panel');
	await steps.getByRole('button', { name: 'Check step' }).click();
	const consent = page.getByRole('dialog', { name: "Run this scenario's check?" });
	const verdict = steps.getByTestId('step-verdict');
	await expect(consent.or(verdict.filter({ hasNotText: 'Checking' }))).toBeVisible({
		timeout: 60_000
	});
	if (await consent.isVisible())
		await consent.getByRole('button', { name: 'Run the check' }).click();
	await expect(verdict).not.toContainText('Checking', { timeout: 60_000 });
	return (await verdict.innerText()).trim();
}

test('a stepped scenario: its brief per step, a check, the solution, a reset, and a reload', async ({
	page
}) => {
	test.setTimeout(180_000);
	await page.goto(`/?scenario=${encodeURIComponent(`${host.origin}/stepped.zip`)}`);
	await expect(page.getByRole('tree', { name: 'Workspace files' })).toBeVisible({
		timeout: 30_000
	});
	const brief = page.getByRole('dialog');
	await expect(brief).toBeVisible({ timeout: 30_000 });
	await brief.getByRole('button', { name: 'Close', exact: true }).click();

	// The Steps tab is shown first, on step 1, with its part of the brief.
	await expect(page.getByRole('tab', { name: 'Steps' })).toHaveAttribute('aria-selected', 'true');
	const panel = page.locator('#right-panel');
	await expect(panel.getByRole('heading', { name: 'Step 1 of 2: Add the sum' })).toBeVisible({
		timeout: 30_000
	});
	await expect(panel.getByRole('heading', { name: 'Add the sum', exact: true })).toBeVisible();
	await expect(panel.getByRole('button', { name: '1. Add the sum' })).toHaveAttribute(
		'aria-current',
		'step'
	);

	expect(await seriousViolations(page)).toEqual([]);

	// Not done yet: the criterion fails.
	expect(await checkStep(page)).toMatch(
		/Step 1 is not done yet: INT-001: 1 of 1 runnable criteria fails/
	);

	// Show solution: asked first, then written as the person's change; the scratch file goes.
	await panel.getByRole('button', { name: 'Show solution' }).click();
	await confirmDialog(page, 'Show the solution of step 1', 'Apply solution');
	await expect(treeItem(page, 'scratch.ts')).toBeHidden({ timeout: 30_000 });
	await openFile(page, 'src/math.ts');
	await expect(page.locator('.monaco-editor .view-lines').first()).toContainText('return a + b');
	expect(await checkStep(page)).toMatch(/Step 1 passes: INT-001: All 1 runnable criteria pass/);
	await expect(panel.getByRole('button', { name: '1. Add the sum ✓' })).toBeVisible();

	// The ledger has it as the person's change.
	await page.getByRole('tab', { name: 'Trace' }).click();
	await expect(page.locator('#right-panel')).toContainText('step-solution', { timeout: 30_000 });
	await page.getByRole('tab', { name: 'Steps' }).click();

	// Reset step: the files as the step began.
	await panel.getByRole('button', { name: 'Reset step' }).click();
	await confirmDialog(page, 'Reset step 1', 'Restore');
	await expect(treeItem(page, 'scratch.ts')).toBeVisible({ timeout: 30_000 });
	await expect(page.locator('.monaco-editor .view-lines').first()).toContainText('return 0', {
		timeout: 30_000
	});

	// Step 2 has no solution: none is offered. Where the learner is survives a reload.
	await panel.getByRole('button', { name: 'Next step' }).click();
	await expect(panel.getByRole('heading', { name: 'Step 2 of 2: Write it down' })).toBeVisible();
	await expect(panel.getByRole('button', { name: 'Show solution' })).toHaveCount(0);
	await expect(panel.getByRole('button', { name: 'Check step' })).toHaveCount(0);
	await expect(panel).toContainText('This step has no criteria to check');
	await expect(panel.getByRole('button', { name: 'Next step' })).toBeDisabled();

	await page.reload();
	await expect(
		page.locator('#right-panel').getByRole('heading', { name: 'Step 2 of 2: Write it down' })
	).toBeVisible({
		timeout: 30_000
	});
	// Keyboard: the step list is buttons in order; Previous step goes back.
	await page.locator('#right-panel').getByRole('button', { name: 'Previous step' }).focus();
	await page.keyboard.press('Enter');
	await expect(
		page.locator('#right-panel').getByRole('heading', { name: 'Step 1 of 2: Add the sum' })
	).toBeVisible();
});
