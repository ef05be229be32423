import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { threadlineVersion } from './ide-session.svelte.js';

describe('threadlineVersion', () => {
	it('is the version in package.json (recorded as tool.version in trace records)', () => {
		const packageJson = JSON.parse(
			readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')
		) as { version: string };
		expect(threadlineVersion).toBe(packageJson.version);
	});
});
