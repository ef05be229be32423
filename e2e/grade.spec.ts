import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import {
	cpSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { zipEntries } from '../hooks/ledger/read-export.js';

// Three exports made with the real CLI from the TRP1 fixture: one clean, one tampered in the
// middle of its audit chain, one with a file no record wrote.
let folder = '';
let classFolder = '';
let tamperedLine = 0;
const cli = join(process.cwd(), 'bin', 'threadline.js');

function filesOf(root: string): Map<string, Uint8Array> {
	const entries = new Map<string, Uint8Array>();
	const walk = (current: string) => {
		for (const name of readdirSync(current)) {
			const path = join(current, name);
			if (statSync(path).isDirectory()) walk(path);
			else
				entries.set(relative(root, path).split(sep).join('/'), new Uint8Array(readFileSync(path)));
		}
	};
	walk(root);
	return entries;
}

test.beforeAll(() => {
	folder = mkdtempSync(join(tmpdir(), 'threadline-grade-'));
	const workspace = join(folder, 'replayed');
	cpSync(join(process.cwd(), 'bin', 'fixtures', 'trp1-workspace'), workspace, { recursive: true });
	execFileSync(
		process.execPath,
		[cli, 'replay', 'bin/fixtures/trp1-demo.yaml', '--workspace', workspace],
		{
			stdio: 'ignore'
		}
	);
	classFolder = join(folder, 'class');
	const clean = filesOf(workspace);
	const tampered = new Map(clean);
	const audit = new TextDecoder().decode(clean.get('.orchestration/audit.jsonl')).split('\n');
	tamperedLine = Math.floor(audit.filter(Boolean).length / 2);
	const event = JSON.parse(audit[tamperedLine - 1] as string) as { session_id: string };
	event.session_id = 'forged';
	audit[tamperedLine - 1] = JSON.stringify(event);
	tampered.set('.orchestration/audit.jsonl', new TextEncoder().encode(audit.join('\n')));
	const unattributed = new Map(clean);
	unattributed.set('src/backdoor.ts', new TextEncoder().encode('export const secret = 1;\n'));
	execFileSync('mkdir', ['-p', classFolder]);
	writeFileSync(join(classFolder, 'alice-clean.zip'), zipEntries(clean));
	writeFileSync(join(classFolder, 'bob-tampered.zip'), zipEntries(tampered));
	writeFileSync(join(classFolder, 'carol-unattributed.zip'), zipEntries(unattributed));
});

test.afterAll(() => {
	if (folder) rmSync(folder, { recursive: true, force: true });
});

async function dropClass(page: Page) {
	await page.goto('/grade');
	await page
		.getByLabel('Pick export zips or jsonl files')
		.setInputFiles(
			['alice-clean.zip', 'bob-tampered.zip', 'carol-unattributed.zip'].map((name) =>
				join(classFolder, name)
			)
		);
	await expect(page.locator('table.grade-table > tbody > tr')).toHaveCount(3);
	await expect(page.getByText(/Grading \d+ export/)).toHaveCount(0, { timeout: 30_000 });
}

function rowOf(page: Page, name: string) {
	return page.locator(`table.grade-table > tbody > tr[data-export="${name}"]`);
}

test('verdicts name the failing record, and the class CSV equals the CLI byte for byte', async ({
	page
}) => {
	await dropClass(page);
	await expect(rowOf(page, 'alice-clean.zip').locator('[data-verdict]')).toHaveAttribute(
		'data-verdict',
		'verified'
	);
	const tampered = rowOf(page, 'bob-tampered.zip').locator('[data-verdict]');
	await expect(tampered).toHaveAttribute('data-verdict', 'failed');
	await expect(tampered).toContainText(`audit.jsonl line ${tamperedLine} (seq ${tamperedLine})`);
	const unattributed = rowOf(page, 'carol-unattributed.zip').locator('[data-verdict]');
	await expect(unattributed).toHaveAttribute('data-verdict', 'failed');
	await expect(unattributed).toContainText('src/backdoor.ts: not in the starting snapshot');

	const download = page.waitForEvent('download');
	await page.getByRole('button', { name: 'Download class CSV' }).click();
	const saved = await (await download).path();
	const fromPage = readFileSync(saved, 'utf8');
	const fromCli = execFileSync(process.execPath, [cli, 'report', classFolder, '--format', 'csv'], {
		encoding: 'utf8'
	});
	expect(fromPage).toBe(fromCli);
	expect(fromPage.split('\n')).toHaveLength(5);
});

test("an export's criteria re-run in the offline sandbox, from the page", async ({ page }) => {
	await dropClass(page);
	await page.getByRole('button', { name: 'Open alice-clean.zip' }).click();
	await page.getByRole('button', { name: 'Re-run criteria' }).click();
	const results = page.getByTestId('rerun-criteria');
	await expect(results).toBeVisible({ timeout: 60_000 });
	// TRP1's runnable criterion (a grep over the replayed workspace) passes; the prose one is manual.
	await expect(results.locator('tr[data-outcome="passed"]')).toHaveCount(1);
	await expect(results).toContainText("grep -q 'export function verifyToken' src/auth/jwt.ts");
	await expect(results.locator('tr[data-outcome="manual"]').first()).toBeVisible();
});

test('time travel at the tampered export stops at the failing record', async ({ page }) => {
	await dropClass(page);
	await page.getByRole('button', { name: 'Open bob-tampered.zip' }).click();
	await expect(page.getByTestId('first-failure')).toContainText(`seq ${tamperedLine}`);
	// Every event, call starts and finishes included (they are folded by default).
	await page.getByRole('checkbox', { name: /Show every event/ }).check();
	const slider = page.getByRole('slider', { name: 'Ledger position' });
	await slider.focus();
	await page.keyboard.press('End');
	await expect(page.getByTestId('time-travel-event')).toHaveAttribute('data-failing', 'true');
	await expect(page.getByTestId('time-travel-event')).toContainText(`seq ${tamperedLine} `);
	await expect(page.getByTestId('time-travel-position')).toContainText(
		`${tamperedLine} of ${tamperedLine} reachable`
	);
	await page.keyboard.press('ArrowRight');
	await expect(page.getByTestId('time-travel-event')).toContainText(`seq ${tamperedLine} `);
	await page.keyboard.press('Home');
	await expect(page.getByTestId('time-travel-event')).toContainText('seq 1 ');
	await page.keyboard.press('ArrowRight');
	await expect(page.getByTestId('time-travel-event')).toContainText('seq 2 ');
});

test('the transcript beside time travel: what was said, then the change and its file content', async ({
	page
}) => {
	await dropClass(page);
	await page.getByRole('button', { name: 'Open alice-clean.zip' }).click();
	const transcript = page.getByTestId('transcript');
	await expect(transcript).toContainText('I will add JWT support.');
	await expect(transcript).toContainText('Model calls write_to_file');
	// A change's seq moves time travel there; the file's content at that event is shown.
	const change = transcript
		.locator('li[data-kind="change"]', { hasText: 'src/auth/jwt.ts' })
		.first();
	await change.getByRole('button').click();
	await expect(page.getByTestId('time-travel-event')).toContainText('mutation-record');
	await expect(page.getByTestId('time-travel-content')).toContainText(
		'export function verifyToken'
	);
	// Folded by default: stepping never lands on a call's start or finish.
	const slider = page.getByRole('slider', { name: 'Ledger position' });
	await slider.focus();
	for (let step = 0; step < 6; step++) {
		await page.keyboard.press('ArrowRight');
		await expect(page.getByTestId('time-travel-event')).not.toContainText('tool-call-start');
	}
});

test('the whole page works from the keyboard and axe finds nothing serious', async ({ page }) => {
	await dropClass(page);
	const serious = async () =>
		(await new AxeBuilder({ page }).analyze()).violations.filter(
			(violation) => violation.impact === 'serious' || violation.impact === 'critical'
		);
	expect(await serious()).toEqual([]);

	// Sort by verdict from the keyboard: the header button toggles aria-sort.
	const verdictHeader = page.getByRole('columnheader', { name: /Verify/ });
	await page.getByRole('button', { name: 'Verify', exact: true }).focus();
	await page.keyboard.press('Enter');
	await expect(verdictHeader).toHaveAttribute('aria-sort', 'ascending');
	await page.keyboard.press('Enter');
	await expect(verdictHeader).toHaveAttribute('aria-sort', 'descending');
	await expect(page.locator('table.grade-table > tbody > tr').first()).toHaveAttribute(
		'data-export',
		'alice-clean.zip'
	);

	// Filter to failed ones only.
	await page.getByLabel('Verdict').selectOption('failed');
	await expect(page.locator('table.grade-table > tbody > tr')).toHaveCount(2);
	await page.getByLabel('Verdict').selectOption('all');

	// Compare two exports of the same scenario with Space on their checkboxes.
	await page.getByRole('checkbox', { name: 'Compare alice-clean.zip' }).focus();
	await page.keyboard.press('Space');
	await page.getByRole('checkbox', { name: 'Compare carol-unattributed.zip' }).focus();
	await page.keyboard.press('Space');
	await expect(page.getByTestId('compare-table')).toBeVisible();

	// Open an export with Tab and Enter; focus lands on its heading; its page is axe-clean too.
	await page.getByRole('button', { name: 'Open alice-clean.zip' }).focus();
	await page.keyboard.press('Enter');
	await expect(page.getByRole('heading', { name: 'alice-clean.zip', level: 2 })).toBeFocused();
	await expect(page.getByRole('heading', { name: /Conversation/ })).toBeVisible();
	expect(await serious()).toEqual([]);
	await page.keyboard.press('Tab');
	await expect(page.getByRole('button', { name: 'Back to the class' })).toBeFocused();
	await page.keyboard.press('Enter');
	await expect(page.getByRole('heading', { name: "Grader's desk" })).toBeFocused();
});
