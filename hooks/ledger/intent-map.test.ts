import { describe, expect, it } from 'vitest';
import { renderIntentMap } from './intent-map.js';
import { buildMixedLedger } from './ledger-test-fixtures.js';
import type { Intent } from '../intents/intent.js';

function intent(id: string, name: string, status: Intent['status']): Intent {
	return {
		id,
		name,
		status,
		owned_scope: [],
		constraints: [],
		acceptance_criteria: [],
		parallel: false,
		extra: {}
	};
}

describe('renderIntentMap', () => {
	it('lists per intent the evolved files with the last change, and counts refactors', async () => {
		const { events } = await buildMixedLedger();
		const map = renderIntentMap(events, [
			intent('INT-001', 'JWT Authentication Migration', 'IN_PROGRESS'),
			intent('INT-002', 'Rate limiting', 'DRAFT')
		]);
		expect(map).toBe(
			[
				'# Intent map',
				'',
				'Generated from 23 ledger events (last seq 23). Seq numbers refer to `metadata["dev.threadline"].seq` in `agent_trace.jsonl`.',
				'',
				'## INT-001 — JWT Authentication Migration (IN_PROGRESS)',
				'',
				'| File | Last change (seq) | Time |',
				'| --- | --- | --- |',
				'| `src/auth/jwt.ts` | 5 | 2026-11-21T12:00:00.000Z |',
				'| `src/legacy.ts` (deleted) | 3 | 2026-11-21T12:00:00.000Z |',
				'',
				'AST refactors: 1 (1 file)',
				'',
				'## INT-002 — Rate limiting (DRAFT)',
				'',
				'_No files changed by INTENT_EVOLUTION._',
				'',
				'AST refactors: 0',
				'',
				'## Changes without an intent',
				'',
				'| File | Last change (seq) | Time |',
				'| --- | --- | --- |',
				'| `README.md` | 4 | 2026-11-21T12:00:00.000Z |',
				'',
				'AST refactors: 0',
				''
			].join('\n')
		);
	});

	it('is deterministic whatever the order of intents it is not given', async () => {
		const { events } = await buildMixedLedger();
		expect(renderIntentMap(events, [])).toBe(renderIntentMap([...events], []));
		expect(renderIntentMap(events, [])).toContain('## INT-001 (not in active_intents.yaml)');
	});

	it('keeps names and paths from breaking the markdown', () => {
		const map = renderIntentMap([], [intent('INT-9', 'Pipes | and\n# headings', 'BLOCKED')]);
		expect(map).toContain('## INT-9 — Pipes \\| and \\# headings (BLOCKED)');
	});

	it('says when there is nothing to show', () => {
		expect(renderIntentMap([], [])).toContain('_No intents and no changes recorded._');
	});
});
