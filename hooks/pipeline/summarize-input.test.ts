import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../ledger/canonical-json.js';
import { summarizeInput } from './summarize-input.js';

describe('summarizeInput', () => {
	it('shortens long strings and keeps short ones', () => {
		expect(summarizeInput({ path: 'a.ts', content: 'x'.repeat(1000) })).toEqual({
			path: 'a.ts',
			content: `${'x'.repeat(240)}… (1000 characters)`
		});
	});

	it('turns values JSON cannot hold into strings, so the ledger can always record the call', () => {
		const cyclic: Record<string, unknown> = { a: 1 };
		cyclic.self = cyclic;
		const summary = summarizeInput([Infinity, NaN, 10n, () => 1, undefined, cyclic]);
		expect(summary).toEqual([
			'Infinity',
			'NaN',
			'[bigint]',
			'[function]',
			null,
			{ a: 1, self: '[circular]' }
		]);
		expect(() => canonicalJson(summary)).not.toThrow();
	});
});
