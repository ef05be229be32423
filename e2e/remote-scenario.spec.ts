import { expect, test } from '@playwright/test';
import { serveStaticFiles, type StaticFilesServer } from './fixtures/static-files-server.js';

/**
 * A scenario from a URL is untrusted data: it loads, is marked as such, and its markdown brief is
 * rendered sanitized (no script, no event handler, no javascript: link).
 */
const hostileBrief = `# Remote exercise

Read me. <img src="x" onerror="window.__pwned = 'img'"> <script>window.__pwned = 'script'</script>

[click](javascript:window.__pwned='link')`;

const bundle = {
	manifest: {
		id: 'remote-exercise',
		title: 'A remote exercise',
		summary: 'Loaded from another origin.',
		brief: hostileBrief,
		suggested_prompts: [],
		approval_policy: 'destructive',
		sandbox: { needs: 'any' }
	},
	files: {
		'.orchestration/active_intents.yaml': {
			encoding: 'utf8',
			content:
				'active_intents:\n  - id: INT-001\n    name: Remote\n    status: IN_PROGRESS\n    owned_scope: ["src/**"]\n'
		},
		'src/hello.ts': { encoding: 'utf8', content: 'export const hello = "remote";\n' }
	},
	demo: null
};

let host: StaticFilesServer;

test.beforeAll(async () => {
	host = await serveStaticFiles(
		() => new Map([['/exercise.json', { type: 'application/json', body: JSON.stringify(bundle) }]])
	);
});

test.afterAll(async () => {
	await host?.close();
});

test('a remote scenario opens as untrusted, with its brief sanitized', async ({ page }) => {
	await page.goto(`/?scenario=${encodeURIComponent(`${host.origin}/exercise.json`)}`);
	await expect(page.getByRole('treeitem', { name: 'src', exact: true })).toBeVisible({
		timeout: 30_000
	});
	await expect(page.getByText('Untrusted scenario')).toBeVisible();
	const brief = page.getByRole('dialog');
	await expect(brief).toBeVisible();
	await expect(brief).toContainText('nothing in it runs unless you run it');
	await expect(brief.getByRole('heading', { name: 'Remote exercise', exact: true })).toBeVisible();
	const html = await brief.locator('.markdown').innerHTML();
	expect(html).not.toMatch(/onerror|<script|javascript:/i);
	// Give any handler that survived sanitizing the time to run: none may have.
	await page.waitForTimeout(500);
	expect(await page.evaluate(() => (globalThis as { __pwned?: string }).__pwned)).toBeUndefined();
});

test('a scenario URL that does not answer gives a clear error', async ({ page }) => {
	await page.goto(`/?scenario=${encodeURIComponent(`${host.origin}/missing.json`)}`);
	await expect(page.getByRole('heading', { name: 'The IDE could not start' })).toBeVisible({
		timeout: 30_000
	});
	await expect(page.getByRole('main')).toContainText('404');
});
