import { deflateSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { sampleBundle } from '../../../hooks/scenarios/scenario-test-fixtures.js';
import { buildJwtAuthBundle } from './share-test-fixtures.js';
import { openShareFragment, shareFragmentPrefix, shareUrl } from './share-link.js';

const base = 'https://threadline.example/?scenario=x';

function fragmentOf(url: string): string {
	return url.slice(url.indexOf('#'));
}

function base64Url(bytes: Uint8Array): string {
	return Buffer.from(bytes).toString('base64url');
}

/** Bytes deflate cannot shrink (a linear congruential sequence), like a real zip's. */
function pseudoRandomBytes(length: number): Uint8Array {
	const bytes = new Uint8Array(length);
	let state = 12_345;
	for (let index = 0; index < length; index++) {
		state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
		bytes[index] = state >>> 16;
	}
	return bytes;
}

describe('share links', () => {
	it('round-trips a workspace through the URL fragment', async () => {
		const bundle = sampleBundle();
		const link = shareUrl(base, bundle);
		expect(link.ok).toBe(true);
		if (!link.ok) return;
		expect(link.url.startsWith(`${base}${shareFragmentPrefix}`)).toBe(true);
		const opened = await openShareFragment(fragmentOf(link.url));
		expect(opened).toMatchObject({ ok: true, bundle: { ...bundle, demo: null } });
	});

	it('carries the history only when asked, and gives its bytes back unchanged', async () => {
		const bundle = sampleBundle();
		const plain = shareUrl(base, bundle);
		if (!plain.ok) throw new Error('the sample should fit');
		const withoutHistory = await openShareFragment(fragmentOf(plain.url));
		expect(withoutHistory?.ok && withoutHistory.history).toBeUndefined();
		const history = { 'audit.jsonl': '{"seq":1}\n', 'agent_trace.jsonl': '' };
		const link = shareUrl(base, bundle, { history });
		if (!link.ok) throw new Error('a small history should fit');
		const opened = await openShareFragment(fragmentOf(link.url));
		expect(opened).toMatchObject({ ok: true, bundle: { ...bundle, demo: null } });
		expect(opened?.ok && opened.history).toEqual(history);
		// A history too large for a link says what to do instead.
		const large = shareUrl(base, bundle, {
			history: { 'audit.jsonl': Buffer.from(pseudoRandomBytes(40_000)).toString('base64') }
		});
		expect(large.ok).toBe(false);
		if (!large.ok) expect(large.message).toMatch(/without the history.*Export \.orchestration/);
	});

	it('refuses a link whose history is not .orchestration files', async () => {
		for (const history of [{ evil: true }, { '../x': 'a' }, { '.hidden': 'a' }, 'text', {}]) {
			const json = JSON.stringify({ ...sampleBundle(), demo: null, history });
			const payload = base64Url(deflateSync(strToU8(json), { level: 9 }));
			const opened = await openShareFragment(`${shareFragmentPrefix}${payload}`);
			expect(opened, JSON.stringify(history)).toMatchObject({
				ok: false,
				error: expect.stringContaining('history')
			});
		}
	});

	it('fits the jwt-auth workspace in at most 8 KB of URL', async () => {
		const link = shareUrl(base, await buildJwtAuthBundle());
		expect(link.ok).toBe(true);
		console.info(`jwt-auth share link: ${link.length} characters`);
		expect(link.length).toBeLessThanOrEqual(8 * 1024);
	});

	it('says to export a zip when the workspace is too large for a link', () => {
		const bundle = sampleBundle();
		const noise = Array.from({ length: 60_000 }, (_, index) =>
			((index * 7919) % 65_521).toString(36)
		).join('');
		const link = shareUrl(base, {
			...bundle,
			files: { ...bundle.files, 'big.txt': { encoding: 'utf8', content: noise } }
		});
		expect(link.ok).toBe(false);
		if (!link.ok) expect(link.message).toContain('Export scenario');
	});

	it('ignores fragments that are not share links', async () => {
		expect(await openShareFragment('')).toBeNull();
		expect(await openShareFragment('#section-2')).toBeNull();
	});

	it('refuses a deflate bomb, damaged data and bundles that fail validation', async () => {
		const bomb = base64Url(deflateSync(new Uint8Array(20 * 1024 * 1024), { level: 9 }));
		const bombResult = await openShareFragment(`${shareFragmentPrefix}${bomb}`);
		expect(bombResult).toMatchObject({ ok: false });
		expect(bombResult && !bombResult.ok && bombResult.error).toContain('MB');
		expect(await openShareFragment(`${shareFragmentPrefix}abc$%`)).toMatchObject({ ok: false });
		expect(await openShareFragment(`${shareFragmentPrefix}AAAA`)).toMatchObject({ ok: false });
		const hostile = {
			...sampleBundle(),
			files: { '../etc/passwd': { encoding: 'utf8', content: 'x' } }
		};
		const hostileLink = base64Url(deflateSync(strToU8(JSON.stringify(hostile))));
		const hostileResult = await openShareFragment(`${shareFragmentPrefix}${hostileLink}`);
		expect(hostileResult).toMatchObject({ ok: false });
	});

	it('gives distinct workspaces distinct fingerprints', async () => {
		const first = shareUrl(base, sampleBundle());
		const bundle = sampleBundle();
		const second = shareUrl(base, { ...bundle, manifest: { ...bundle.manifest, title: 'Other' } });
		if (!first.ok || !second.ok) throw new Error('links failed');
		const a = await openShareFragment(fragmentOf(first.url));
		const b = await openShareFragment(fragmentOf(second.url));
		expect(a?.ok && b?.ok && a.fingerprint !== b.fingerprint).toBe(true);
	});
});
