import { expect, test, type Page } from '@playwright/test';
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
	// It opens once the sandbox is ready: on a cold first load this takes a while.
	await expect(brief).toBeVisible({ timeout: 30_000 });
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

/** A scenario bundle declaring `id`, whose starting file says `marker` and whose brief is `brief`. */
function bundleOf(id: string, marker: string, brief = `# ${id}\n\nA scenario.`) {
	return {
		...bundle,
		manifest: { ...bundle.manifest, id, brief },
		files: {
			...bundle.files,
			'src/hello.ts': { encoding: 'utf8', content: `export const hello = "${marker}";\n` }
		}
	};
}

/** Opens a remote scenario and waits for its shell; closes the brief when it shows. */
async function openRemote(page: Page, url: string): Promise<void> {
	await page.goto(`/?scenario=${encodeURIComponent(url)}`);
	await expect(page.locator('.xterm-rows')).toContainText('workspace $', { timeout: 30_000 });
	const brief = page.getByRole('dialog');
	if (await brief.isVisible())
		await brief.getByRole('button', { name: 'Close', exact: true }).click();
}

test('a remote brief loads nothing from its host: its images are placeholders', async ({
	page
}) => {
	const requested: string[] = [];
	const gif = { type: 'image/gif', body: new Uint8Array([71, 73, 70, 56, 57, 97]) };
	const tracker = await serveStaticFiles(() => {
		const files = new Map([
			['/pixel.gif', gif],
			['/raw.gif', gif]
		]);
		return {
			get: (path: string) => (requested.push(path), files.get(path))
		} as unknown as ReadonlyMap<string, typeof gif>;
	});
	const withImages = await serveStaticFiles(
		() =>
			new Map([
				[
					'/images.json',
					{
						type: 'application/json',
						body: JSON.stringify(
							bundleOf(
								'image-brief',
								'images',
								`# Images\n\n![pixel](${tracker.origin}/pixel.gif)\n\n<img src="${tracker.origin}/raw.gif" alt="raw">`
							)
						)
					}
				]
			])
	);
	try {
		await page.goto(`/?scenario=${encodeURIComponent(`${withImages.origin}/images.json`)}`);
		const brief = page.getByRole('dialog');
		await expect(brief.getByRole('heading', { name: 'Images', exact: true })).toBeVisible({
			timeout: 30_000
		});
		await expect(brief).toContainText('Image from');
		await expect(brief).toContainText('not loaded: pixel');
		expect(await brief.locator('.markdown img').count()).toBe(0);
		await page.waitForTimeout(500);
		expect(requested).toEqual([]);
	} finally {
		await Promise.all([tracker.close(), withImages.close()]);
	}
});

test('remote scenarios get a workspace per URL and content, never per declared id', async ({
	page
}) => {
	// Two URLs and a reload each restart the sandbox: slow on a shared, loaded machine.
	test.setTimeout(120_000);
	const served = new Map([
		['/a.json', { type: 'application/json', body: JSON.stringify(bundleOf('shared-id', 'a')) }],
		['/b.json', { type: 'application/json', body: JSON.stringify(bundleOf('shared-id', 'b')) }]
	]);
	const courses = await serveStaticFiles(() => served);
	const tree = page.getByRole('tree', { name: 'Workspace files' });
	const mine = tree.getByRole('treeitem', { name: 'mine.txt', exact: true });
	const terminal = page.getByRole('textbox', { name: 'Terminal input' });
	try {
		await openRemote(page, `${courses.origin}/a.json`);
		await terminal.focus();
		await page.keyboard.type('echo work > mine.txt');
		await page.keyboard.press('Enter');
		await expect(mine).toBeVisible({ timeout: 30_000 });
		await page.waitForTimeout(300); // the write-behind store

		// Another URL declaring the same id: a workspace of its own.
		await openRemote(page, `${courses.origin}/b.json`);
		await expect(tree.getByRole('treeitem', { name: 'src', exact: true })).toBeVisible();
		await expect(mine).toHaveCount(0);

		// The first URL, unchanged: the learner's work is there.
		await openRemote(page, `${courses.origin}/a.json`);
		await expect(mine).toBeVisible({ timeout: 30_000 });

		// The first URL with changed content: a new workspace, and the learner is told.
		served.set('/a.json', {
			type: 'application/json',
			body: JSON.stringify(bundleOf('shared-id', 'a, version 2'))
		});
		await openRemote(page, `${courses.origin}/a.json`);
		await expect(
			page.getByRole('status').filter({ hasText: 'changed since you last opened it' })
		).toBeVisible({ timeout: 30_000 });
		await expect(mine).toHaveCount(0);
	} finally {
		await courses.close();
	}
});
