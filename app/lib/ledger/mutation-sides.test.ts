import { describe, expect, it } from 'vitest';
import { contentHash } from '../../../hooks/hashing/sha256.js';
import {
	buildMutationDraft,
	fixtureUuid,
	steppingClock
} from '../../../hooks/ledger/ledger-test-fixtures.js';
import { MemoryLedger } from '../../../hooks/ledger/memory-ledger.js';
import { mutationSides } from './mutation-sides.js';

async function ledgerOf(withSnapshot: boolean) {
	const ledger = new MemoryLedger({ clock: steppingClock() });
	if (withSnapshot) {
		await ledger.append([
			{
				type: 'workspace-snapshot',
				session_id: 'workspace',
				files: { 'a.ts': await contentHash('a0\n') }
			}
		]);
	}
	await ledger.append([
		await buildMutationDraft({ id: fixtureUuid(1), path: 'a.ts', before: 'a0\n', after: 'a1\n' }),
		await buildMutationDraft({ id: fixtureUuid(2), path: 'b.ts', before: null, after: 'b1\n' }),
		await buildMutationDraft({ id: fixtureUuid(3), path: 'a.ts', before: 'a1\n', after: null }),
		{ type: 'intent-select', session_id: 's', intent_id: 'INT-001', tool_call_id: null }
	]);
	return ledger.events();
}

describe('mutationSides', () => {
	it('takes the before from the snapshot, then from the last record of the same path', async () => {
		const events = await ledgerOf(true);
		expect(mutationSides(events, 2)).toEqual({
			seq: 2,
			path: 'a.ts',
			before: await contentHash('a0\n'),
			after: await contentHash('a1\n'),
			beforeKnown: true
		});
		// b.ts is not in the snapshot: it did not exist before.
		expect(mutationSides(events, 3)).toMatchObject({
			path: 'b.ts',
			before: null,
			beforeKnown: true
		});
		expect(mutationSides(events, 4)).toMatchObject({
			path: 'a.ts',
			before: await contentHash('a1\n'),
			after: null
		});
	});

	it('says when nothing tells what was there before', async () => {
		const events = await ledgerOf(false);
		expect(mutationSides(events, 1)).toMatchObject({ before: null, beforeKnown: false });
	});

	it('is null for other events and unknown seqs', async () => {
		const events = await ledgerOf(true);
		expect(mutationSides(events, 1)).toBeNull();
		expect(mutationSides(events, 5)).toBeNull();
		expect(mutationSides(events, 99)).toBeNull();
		// Seqs that do not match positions (a slice of the ledger) are still found.
		expect(mutationSides(events.slice(1), 3)).toMatchObject({ path: 'b.ts' });
	});
});
