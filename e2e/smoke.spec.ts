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
