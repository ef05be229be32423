import { describe, expect, it } from 'vitest';
import { GovernanceState } from '../../../hooks/pipeline/governance-state.js';
import {
	clampPosition,
	describeProblem,
	draftProblems,
	intentCards,
	orphanLocks,
	reconcileDraft,
	saveState,
	startDraft
} from './intents-view.js';

const yaml = `active_intents:
  - id: INT-001
    name: JWT Authentication Migration
    status: IN_PROGRESS
    owned_scope: ["src/auth/**", "src/middleware/jwt.ts"]
    constraints: ["Must not use external auth providers"]
    acceptance_criteria:
      - "Unit tests in tests/auth/ pass"
      - description: "Auth tests pass"
        run: "npm test -- auth"
  - id: INT-002
    name: Docs
    status: DRAFT
  - id: INT-003
    name: Shared refactor
    status: IN_PROGRESS
    parallel: true
    owned_scope: ["src/**"]
  - id: INT-004
    name: Blocked work
    status: BLOCKED
  - id: INT-005
    name: Done work
    status: COMPLETED
`;

const sessions = [
	{ id: 'architect', name: 'Architect' },
	{ id: 'builder', name: 'Builder' }
];

function governance(intentIgnore = ''): GovernanceState {
	return new GovernanceState({ intentsYaml: yaml, intentIgnore });
}

describe('intentCards', () => {
	it('shows every intent with status, scope, constraints and criteria', () => {
		const cards = intentCards(governance(), sessions);
		expect(cards.map((card) => [card.id, card.statusLabel])).toEqual([
			['INT-001', 'In progress'],
			['INT-002', 'Draft'],
			['INT-003', 'In progress'],
			['INT-004', 'Blocked'],
			['INT-005', 'Completed']
		]);
		const first = cards[0];
		expect(first).toMatchObject({
			name: 'JWT Authentication Migration',
			status: 'IN_PROGRESS',
			ownedScope: ['src/auth/**', 'src/middleware/jwt.ts'],
			constraints: ['Must not use external auth providers'],
			owners: [],
			protected: false,
			parallel: false
		});
		expect(first?.criteria).toEqual([
			{ description: 'Unit tests in tests/auth/ pass', command: null },
			{ description: 'Auth tests pass', command: 'npm test -- auth' }
		]);
		expect(cards[1]).toMatchObject({ ownedScope: [], constraints: [], criteria: [] });
	});

	it('marks intents listed in .intentignore as protected', () => {
		const cards = intentCards(governance('# protected\nINT-003 # shared\n'), sessions);
		expect(cards.filter((card) => card.protected).map((card) => card.id)).toEqual(['INT-003']);
	});

	it('offers "Select for <session>" only on IN_PROGRESS intents', () => {
		const cards = intentCards(governance(), sessions);
		const offered = cards.filter((card) => card.choices.length > 0).map((card) => card.id);
		expect(offered).toEqual(['INT-001', 'INT-003']);
		expect(cards[0]?.choices).toEqual([
			{ sessionId: 'architect', sessionName: 'Architect', holds: false, unavailableReason: null },
			{ sessionId: 'builder', sessionName: 'Builder', holds: false, unavailableReason: null }
		]);
	});

	it('names the owners from the locks and disables what the lock forbids', () => {
		const state = governance();
		state.acquire(state.session('builder'), 'INT-001');
		state.acquire(state.session('architect'), 'INT-003');
		state.acquire(state.session('builder-2'), 'INT-003');
		const cards = intentCards(state, sessions);
		const jwt = cards[0];
		expect(jwt?.owners).toEqual([{ id: 'builder', name: 'Builder' }]);
		expect(jwt?.choices.map((choice) => choice.unavailableReason)).toEqual([
			'INT-001 is held by Builder; it is not marked parallel.',
			'Builder already holds INT-001.'
		]);
		expect(jwt?.choices[1]?.holds).toBe(true);
		// Parallel: another holder does not block; an unknown session shows its id.
		const shared = cards[2];
		expect(shared?.owners.map((owner) => owner.name)).toEqual(['Architect', 'builder-2']);
		expect(shared?.choices.map((choice) => choice.unavailableReason)).toEqual([
			'Architect already holds INT-003.',
			null
		]);
	});

	it('prefers the given session names, then the state’s names', () => {
		const state = governance();
		const session = state.session('s-7');
		session.name = 'Reviewer';
		state.acquire(session, 'INT-001');
		expect(intentCards(state, [])[0]?.owners).toEqual([{ id: 's-7', name: 'Reviewer' }]);
		expect(intentCards(state, [{ id: 's-7', name: 'Tab 2' }])[0]?.owners).toEqual([
			{ id: 's-7', name: 'Tab 2' }
		]);
	});

	it('releases show up: a released intent has no owner', () => {
		const state = governance();
		const builder = state.session('builder');
		state.acquire(builder, 'INT-001');
		state.acquire(builder, 'INT-003');
		const cards = intentCards(state, sessions);
		expect(cards[0]?.owners).toEqual([]);
		expect(cards[2]?.owners).toEqual([{ id: 'builder', name: 'Builder' }]);
	});

	it('gives no cards for an empty list and no choices without sessions', () => {
		const empty = new GovernanceState({ intentsYaml: 'active_intents: []\n' });
		expect(intentCards(empty, sessions)).toEqual([]);
		expect(intentCards(governance(), []).every((card) => card.choices.length === 0)).toBe(true);
	});
});

describe('orphanLocks', () => {
	it('names locks on intents the YAML no longer lists', () => {
		const state = governance();
		state.acquire(state.session('builder'), 'INT-003');
		state.acquire(state.session('architect'), 'INT-001');
		expect(orphanLocks(state, sessions)).toEqual([]);
		expect(state.reloadIntents(yaml.replace('id: INT-003', 'id: INT-030'))).toEqual({ ok: true });
		expect(orphanLocks(state, sessions)).toEqual([
			{ intentId: 'INT-003', owners: [{ id: 'builder', name: 'Builder' }] }
		]);
		state.release(state.session('builder'));
		expect(orphanLocks(state, sessions)).toEqual([]);
	});
});

describe('draftProblems', () => {
	it('is empty for valid YAML', () => {
		expect(draftProblems(yaml)).toEqual([]);
	});

	it('gives line and column for a bad status and a syntax error', () => {
		const badStatus = draftProblems(yaml.replace('status: DRAFT', 'status: done'));
		expect(badStatus).toHaveLength(1);
		expect(badStatus[0]).toMatchObject({ line: 13, column: 13 });
		expect(describeProblem(badStatus[0] as never)).toMatch(
			/^13:13 status must be one of DRAFT, IN_PROGRESS, BLOCKED, COMPLETED/
		);
		const syntax = draftProblems('active_intents:\n  - id: [unclosed\n');
		expect(syntax.length).toBeGreaterThan(0);
		expect(syntax[0]?.line).toBeGreaterThanOrEqual(2);
	});

	it('reports an empty file and several problems in order', () => {
		expect(draftProblems('')[0]?.message).toMatch(/empty/);
		const several = draftProblems(
			yaml.replace('    name: Docs\n', '').replace('status: BLOCKED', 'status: WAITING')
		);
		expect(several.length).toBeGreaterThanOrEqual(2);
		const lines = several.map((problem) => problem.line);
		expect(lines).toEqual([...lines].sort((left, right) => left - right));
	});
});

describe('saveState', () => {
	const base = { draft: 'a', saved: 'b', problems: [], saving: false };

	it('enables Save for a changed valid draft', () => {
		expect(saveState(base)).toEqual({ enabled: true, reason: null });
	});

	it('disables Save while the YAML has problems, saying the last valid intents stay', () => {
		const problem = { line: 1, column: 1, message: 'bad', path: [] };
		expect(saveState({ ...base, problems: [problem] })).toEqual({
			enabled: false,
			reason: 'Fix the problem to save; the last valid intents stay in force.'
		});
		expect(saveState({ ...base, problems: [problem, problem] }).reason).toBe(
			'Fix the 2 problems to save; the last valid intents stay in force.'
		);
	});

	it('disables Save without changes and while saving', () => {
		expect(saveState({ ...base, draft: 'b' })).toEqual({
			enabled: false,
			reason: 'No changes to save.'
		});
		expect(saveState({ ...base, saving: true })).toEqual({ enabled: false, reason: 'Saving…' });
	});
});

describe('reconcileDraft', () => {
	it('keeps the draft when the file did not change', () => {
		const draft = { base: 'v1', draft: 'mine', outsideChange: false };
		expect(reconcileDraft(draft, 'v1')).toBe(draft);
	});

	it('follows the file when the draft has no edits of its own', () => {
		expect(reconcileDraft(startDraft('v1'), 'v2')).toEqual(startDraft('v2'));
	});

	it('settles when the file now holds what the draft holds (after a save)', () => {
		expect(reconcileDraft({ base: 'v1', draft: 'v2', outsideChange: false }, 'v2')).toEqual(
			startDraft('v2')
		);
	});

	it('keeps edits and flags a change made on disk meanwhile', () => {
		const flagged = reconcileDraft({ base: 'v1', draft: 'mine', outsideChange: false }, 'v2');
		expect(flagged).toEqual({ base: 'v2', draft: 'mine', outsideChange: true });
		// Stays flagged until the user reloads or saves.
		expect(reconcileDraft(flagged, 'v2')).toBe(flagged);
	});
});

describe('clampPosition', () => {
	const text = 'one\ntwo two\n';

	it('keeps positions inside the text', () => {
		expect(clampPosition(text, 2, 5)).toEqual({ line: 2, column: 5 });
	});

	it('clamps past the end, before the start and nonsense', () => {
		expect(clampPosition(text, 99, 99)).toEqual({ line: 3, column: 1 });
		expect(clampPosition(text, 1, 99)).toEqual({ line: 1, column: 4 });
		expect(clampPosition(text, 0, -3)).toEqual({ line: 1, column: 1 });
		expect(clampPosition(text, Number.NaN, Number.NaN)).toEqual({ line: 1, column: 1 });
		expect(clampPosition('', 5, 5)).toEqual({ line: 1, column: 1 });
		expect(clampPosition('a\r\nbc', 2, 9)).toEqual({ line: 2, column: 3 });
	});
});
