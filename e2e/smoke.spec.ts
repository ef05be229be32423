import { expect, test, type Response } from '@playwright/test';

test('the home page is served cross-origin isolated, assets included', async ({ page }) => {
	const immutableScripts: Response[] = [];
	page.on('response', (response) => {
		const { pathname } = new URL(response.url());
		if (pathname.startsWith('/_app/immutable/') && pathname.endsWith('.js')) {
			immutableScripts.push(response);
		}
	});

	const documentResponse = await page.goto('/');
	expect(documentResponse?.status()).toBe(200);
	const documentHeaders = documentResponse?.headers() ?? {};
	expect(documentHeaders['cross-origin-opener-policy']).toBe('same-origin');
	expect(documentHeaders['cross-origin-embedder-policy']).toBe('require-corp');
	expect(documentHeaders['cross-origin-resource-policy']).toBe('same-origin');

	// The IDE renders only in the browser, so a visible tree also proves the scripts ran.
	await expect(page.getByRole('tree', { name: 'Workspace files' })).toBeVisible({
		timeout: 30_000
	});
	expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(true);

	expect(immutableScripts.length).toBeGreaterThan(0);
	for (const script of immutableScripts) {
		const headers = await script.allHeaders();
		expect(headers['cross-origin-embedder-policy'], script.url()).toBe('require-corp');
		expect(headers['cross-origin-resource-policy'], script.url()).toBe('same-origin');
	}
});

test('an unknown path still answers with the isolation headers', async ({ request }) => {
	const response = await request.get('/no-such-page');
	expect(response.status()).toBe(404);
	expect(response.headers()['cross-origin-embedder-policy']).toBe('require-corp');
	expect(response.headers()['cross-origin-opener-policy']).toBe('same-origin');
});

test('the IDE runs under its Content-Security-Policy, which refuses other origins', async ({
	page
}) => {
	// Every refusal the page sees, from the first script on.
	await page.addInitScript(() => {
		const refused: { directive: string; blocked: string }[] = [];
		(globalThis as { __refused?: typeof refused }).__refused = refused;
		document.addEventListener('securitypolicyviolation', (event) =>
			refused.push({ directive: event.effectiveDirective, blocked: event.blockedURI })
		);
	});
	const refused = () =>
		page.evaluate(
			() => (globalThis as { __refused?: { directive: string; blocked: string }[] }).__refused ?? []
		);

	const response = await page.goto('/?scenario=jwt-auth');
	const policy = response?.headers()['content-security-policy'] ?? '';
	expect(policy).toContain("img-src 'self' data: blob:");
	expect(policy).toContain("object-src 'none'");
	expect(policy).toMatch(/script-src 'self' 'wasm-unsafe-eval' 'nonce-[^']+'/);
	expect(policy).not.toMatch(/(^|\s)'unsafe-eval'/);

	// Boots: the start-up script, the tree, the shell Worker, the brief's lazily loaded markdown.
	await expect(page.getByRole('tree', { name: 'Workspace files' })).toBeVisible({
		timeout: 30_000
	});
	await expect(page.locator('.xterm-rows')).toContainText('workspace $', { timeout: 30_000 });
	const brief = page.getByRole('dialog');
	await expect(brief).toBeVisible({ timeout: 30_000 });
	await brief.getByRole('button', { name: 'Close', exact: true }).click();
	// QuickJS's WebAssembly in the shell Worker.
	const terminal = page.getByRole('textbox', { name: 'Terminal input' });
	await terminal.focus();
	await page.keyboard.type('node -e "console.log(6 * 7)"');
	await page.keyboard.press('Enter');
	await expect(page.locator('.xterm-rows')).toContainText('42', { timeout: 30_000 });
	// Monaco and its TypeScript worker: a type error gets a diagnostic.
	const tree = page.getByRole('tree', { name: 'Workspace files' });
	await tree.getByRole('treeitem', { name: 'src', exact: true }).click();
	await tree.getByRole('treeitem', { name: 'auth', exact: true }).click();
	await tree.getByRole('treeitem', { name: 'login.ts', exact: true }).click();
	await page.locator('.monaco-editor .view-lines').first().click();
	await page.keyboard.press('Control+End');
	await page.keyboard.type('\nexport const broken: number = "not a number";');
	await expect(page.locator('.monaco-editor .squiggly-error').first()).toBeVisible({
		timeout: 30_000
	});

	// An image from another origin, put in the page anyway, is refused by the policy.
	await page.evaluate(() => {
		const image = document.createElement('img');
		image.src = 'http://localhost:9/tracking.gif';
		document.body.append(image);
	});
	await expect
		.poll(async () => (await refused()).map((entry) => entry.directive))
		.toContain('img-src');
	// Nothing the IDE needs was refused. The one expected refusal is eval: zod tries
	// `new Function` once to choose its parser and falls back when it is not allowed.
	expect((await refused()).filter((entry) => entry.blocked !== 'eval')).toEqual([
		{ directive: 'img-src', blocked: 'http://localhost:9/tracking.gif' }
	]);
});
