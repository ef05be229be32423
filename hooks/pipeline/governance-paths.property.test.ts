import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkpointPlan } from '../ledger/checkpoint-plan.js';
import type { LedgerEvent } from '../ledger/ledger-event.js';
import {
	belowGovernanceName,
	governanceNames,
	spellingOf
} from '../paths/governance-spellings-test-kit.js';
import type { GovernancePathKind } from '../paths/protected-paths.js';
import type { EntryChange } from '../tools/sandbox-ports.js';
import { createTestPipeline } from './pipeline-test-kit.js';
import { agentPathCheck, personPathCheck, reviewEntryChanges } from './shell-transaction.js';

/**
 * One rule for governance paths (issue 27): for any spelling a case-insensitive or
 * confusable-blind reader takes for `.orchestration/`, `.git/` or `.intentignore` (and any path
 * below it), every entry point that writes refuses it. Each property fails when that entry point
 * goes back to its old check (case and trailing dots only, `.intentignore` left out).
 */

/** An intent whose scope covers everything: scope never refuses, only the governance rule can. */
const everythingIntents = `active_intents:
  - id: INT-001
    name: Everything
    status: IN_PROGRESS
    owned_scope: ["**", ".*", ".*/**"]
    constraints: []
    acceptance_criteria: []
`;

const kinds = Object.keys(governanceNames) as GovernancePathKind[];
const spelling = fc
	.record({
		kind: fc.constantFrom(...kinds),
		choices: fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 40 }),
		below: fc.constantFrom(...belowGovernanceName)
	})
	.map(({ kind, choices, below }) => `${spellingOf(governanceNames[kind], choices)}${below}`)
	// The one spelling the intents editor may save (recordHumanEdit) is tested on its own below.
	.filter((path) => !path.startsWith('.orchestration/'));

const written = (path: string): EntryChange => ({
	path,
	before: { kind: 'absent' },
	after: { kind: 'file', data: new TextEncoder().encode('x\n') }
});

const runs = { numRuns: 150 };

describe('one rule for governance paths, at every entry point (property)', () => {
	it('the pre-hook refuses an agent’s write, whatever its scope', async () => {
		const kit = createTestPipeline({ intentsYaml: everythingIntents, policy: 'never' });
		await kit.call('select_active_intent', { intent_id: 'INT-001' });
		await fc.assert(
			fc.asyncProperty(spelling, async (path) => {
				const outcome = await kit.call('write_to_file', {
					path,
					content: 'INT-404\n',
					intent_id: 'INT-001',
					mutation_class: 'INTENT_EVOLUTION'
				});
				expect(outcome.ok, JSON.stringify(path)).toBe(false);
				if (!outcome.ok) expect(outcome.error.code).toBe('protected_path');
			}),
			runs
		);
		expect(kit.fs.paths()).toEqual(['.orchestration/active_intents.yaml']);
	});

	it('the shell review (agents, criteria) and the person’s terminal review refuse it', () => {
		const agentCheck = agentPathCheck({
			intentId: 'INT-001',
			isInScope: () => true,
			scopeMessage: () => 'out of scope'
		});
		fc.assert(
			fc.property(spelling, (path) => {
				for (const check of [agentCheck, personPathCheck]) {
					const review = reviewEntryChanges([written(path)], check);
					expect(review.allowed, JSON.stringify(path)).toEqual([]);
					expect(review.refused[0]?.error.code).toBe('protected_path');
				}
			}),
			runs
		);
	});

	it('the terminal commits nothing of it and records the refusal', async () => {
		const kit = createTestPipeline({});
		await fc.assert(
			fc.asyncProperty(spelling, async (path) => {
				const committed: string[][] = [];
				await kit.pipeline.terminalReview()({
					entries: [written(path), written('notes.md')],
					commit: async (paths) => {
						committed.push([...paths]);
					}
				});
				expect(committed, JSON.stringify(path)).toEqual([['notes.md']]);
				const events = await kit.ledger.events();
				expect(events.at(-2)).toMatchObject({ type: 'change-revert', path });
			}),
			runs
		);
	});

	it('recordHumanChanges (step solutions, checkpoint restores) refuses it before writing', async () => {
		const kit = createTestPipeline({});
		await fc.assert(
			fc.asyncProperty(spelling, async (path) => {
				await expect(
					kit.pipeline.recordHumanChanges({
						files: [
							{ path: 'notes.md', content: new Uint8Array([1]) },
							{ path, content: new Uint8Array([2]) }
						],
						tool: 'step-solution'
					})
				).rejects.toThrow(/changes only through governance/);
			}),
			runs
		);
		expect(await kit.fs.stat('notes.md')).toBeNull();
	});

	it('an editor save refuses it (only `.orchestration/…` spelled exactly is the intents editor’s)', async () => {
		const kit = createTestPipeline({});
		await fc.assert(
			fc.asyncProperty(spelling, async (path) => {
				await expect(
					kit.pipeline.recordHumanEdit({ path, content: 'INT-404\n' }),
					JSON.stringify(path)
				).rejects.toThrow(/Cannot save/);
			}),
			runs
		);
		expect(kit.state.protectedIntentIds.size).toBe(0);
	});

	it('a checkpoint plan keeps it as it is', () => {
		fc.assert(
			fc.property(spelling, (path) => {
				const base = { timestamp: 't', prev_hash: 'p', hash: 'h', session_id: 's' };
				const events = [
					{ ...base, seq: 1, type: 'workspace-snapshot', files: { 'a.ts': 'sha256:a' } },
					{
						...base,
						seq: 2,
						type: 'mutation-record',
						trace: {
							files: [{ path, conversations: [{ contributor: { type: 'human' } }] }],
							metadata: { 'dev.threadline': { file_hash: 'sha256:b' } }
						}
					},
					{ ...base, seq: 3, type: 'folder-change', path, change: 'created' }
				] as unknown as LedgerEvent[];
				const planned = checkpointPlan(events, 1);
				if (!planned.ok) throw new Error(planned.reason);
				expect(planned.plan.kept, JSON.stringify(path)).toEqual([path]);
				expect(planned.plan.deletes).toEqual([]);
				expect(planned.plan.removeFolders).toEqual([]);
			}),
			runs
		);
	});
});
