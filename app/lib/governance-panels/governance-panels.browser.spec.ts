import { flushSync, mount, unmount, type Component } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { loadedMonaco } from '../editor/monaco-instance.js';
import { GovernanceState } from '../../../hooks/pipeline/governance-state.js';
import { contentHash } from '../../../hooks/hashing/sha256.js';
import { buildMixedLedger } from '../../../hooks/ledger/ledger-test-fixtures.js';
import type { VerifyReport } from '../../../hooks/ledger/verify.js';
import ExportButtons from './ExportButtons.svelte';
import IntentsPanel from './IntentsPanel.svelte';
import TracePanel from './TracePanel.svelte';

/**
 * What only a real browser shows: the panels render, their buttons call the app, the YAML editor
 * is a real Monaco editor whose problems move its cursor, and a mutation opens a real diff.
 */

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
	for (const component of mounted.splice(0)) unmount(component);
	document.body.replaceChildren();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Svelte's own constraint on props
function mountInBody<Props extends Record<string, any>>(
	component: Component<Props>,
	props: Props
): HTMLElement {
	const target = document.createElement('div');
	document.body.append(target);
	mounted.push(mount(component, { target, props }));
	flushSync();
	return target;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(read: () => T | null | undefined | false, timeoutMs = 20_000): Promise<T> {
	const deadline = performance.now() + timeoutMs;
	for (;;) {
		const value = read();
		if (value) return value;
		if (performance.now() > deadline) throw new Error('timed out waiting');
		await sleep(25);
	}
}

function buttonNamed(root: ParentNode, name: string): HTMLButtonElement | undefined {
	return [...root.querySelectorAll('button')].find(
		(element) => element.textContent?.replace(/\s+/g, ' ').trim() === name
	);
}

const yaml = `active_intents:
  - id: INT-001
    name: JWT Authentication Migration
    status: IN_PROGRESS
    owned_scope: ["src/auth/**"]
    constraints: ["Must not use external auth providers"]
    acceptance_criteria:
      - description: "Auth tests pass"
        run: "npm test -- auth"
  - id: INT-002
    name: Docs
    status: DRAFT
`;

const sessions = [
	{ id: 'architect', name: 'Architect' },
	{ id: 'builder', name: 'Builder' }
];

describe('IntentsPanel', () => {
	it('lists the intents and selects one for a session by hand', async () => {
		const state = new GovernanceState({ intentsYaml: yaml, intentIgnore: 'INT-001\n' });
		state.acquire(state.session('architect'), 'INT-001');
		const selected: string[] = [];
		const root = mountInBody(IntentsPanel, {
			state,
			yamlText: yaml,
			errors: [],
			sessions,
			onselect: (sessionId: string, intentId: string) => {
				selected.push(`${sessionId}:${intentId}`);
			},
			oneditYaml: () => {}
		});
		expect(root.querySelector('h2')?.textContent).toBe('Intents');
		const items = root.querySelectorAll('.intent-list > li');
		expect(items).toHaveLength(2);
		const first = items[0] as HTMLElement;
		expect(first.textContent).toContain('In progress');
		expect(first.textContent).toContain('Protected');
		expect(first.textContent).toContain('Architect');
		expect(first.textContent).toContain('npm test -- auth');
		expect(items[1]?.querySelectorAll('button')).toHaveLength(0);
		// Architect holds it and it is not parallel: only the holder's button is shown disabled.
		expect(buttonNamed(first, 'Select for Architect')?.disabled).toBe(true);
		expect(buttonNamed(first, 'Select for Builder')?.disabled).toBe(true);

		state.release(state.session('architect'));
		const again = mountInBody(IntentsPanel, {
			state,
			yamlText: yaml,
			errors: [],
			sessions,
			onselect: (sessionId: string, intentId: string) => {
				selected.push(`${sessionId}:${intentId}`);
			},
			oneditYaml: () => {}
		});
		const builderButton = buttonNamed(again, 'Select for Builder') as HTMLButtonElement;
		expect(builderButton.disabled).toBe(false);
		builderButton.click();
		await sleep(10);
		expect(selected).toEqual(['builder:INT-001']);
	});

	it('edits the YAML in Monaco: problems listed, a click moves the cursor, Save only when valid', async () => {
		const state = new GovernanceState({ intentsYaml: yaml });
		const saved: string[] = [];
		const root = mountInBody(IntentsPanel, {
			state,
			yamlText: yaml,
			errors: [],
			sessions,
			onselect: () => {},
			oneditYaml: (text: string) => {
				saved.push(text);
			}
		});
		buttonNamed(root, 'Edit active_intents.yaml')?.click();
		flushSync();
		const save = () => buttonNamed(root, 'Save') as HTMLButtonElement;
		expect(save().disabled).toBe(true);
		expect(root.textContent).toContain('No changes to save.');

		// Through the dev server Monaco arrives as hundreds of modules: on a busy two-core machine
		// (CI failed once at 20 s while other suites ran) that can take longer than the other waits.
		const monaco = await until(() => loadedMonaco(), 45_000);
		const editor = await until(() =>
			monaco.editor.getEditors().find((candidate) => root.contains(candidate.getContainerDomNode()))
		);
		const model = editor.getModel();
		if (!model) throw new Error('the editor has no model');
		expect(model.uri.path).toBe('/.orchestration/active_intents.yaml');

		model.setValue(yaml.replace('status: DRAFT', 'status: done'));
		flushSync();
		await until(() => root.querySelector('.problems'));
		const problem = root.querySelector('.problems button') as HTMLButtonElement;
		expect(problem.textContent?.replace(/\s+/g, ' ').trim()).toMatch(
			/^12:13 status must be one of DRAFT, IN_PROGRESS, BLOCKED, COMPLETED/
		);
		expect(save().disabled).toBe(true);
		expect(root.textContent).toContain('the last valid intents stay in force');

		problem.click();
		flushSync();
		expect(editor.getPosition()).toMatchObject({ lineNumber: 12, column: 13 });
		expect(problem.classList.contains('selected')).toBe(true);

		const fixed = yaml.replace('status: DRAFT', 'status: BLOCKED');
		model.setValue(fixed);
		flushSync();
		expect(root.querySelector('.problems')).toBeNull();
		expect(save().disabled).toBe(false);
		save().click();
		await sleep(10);
		expect(saved).toEqual([fixed]);
		expect(buttonNamed(root, 'Edit active_intents.yaml')).toBeDefined();
	});

	it('shows the saved file’s errors and keeps the last valid intents listed', () => {
		const state = new GovernanceState({ intentsYaml: yaml });
		const root = mountInBody(IntentsPanel, {
			state,
			yamlText: 'active_intents: [',
			errors: [{ line: 1, column: 17, message: 'Flow sequence is not closed', path: [] }],
			sessions,
			onselect: () => {},
			oneditYaml: () => {}
		});
		const alert = root.querySelector('[role="alert"]');
		expect(alert?.textContent).toContain('the last valid intents stay in force');
		expect(alert?.textContent).toContain('1:17 Flow sequence is not closed');
		expect(root.querySelectorAll('.intent-list > li')).toHaveLength(2);
	});
});

describe('TracePanel', () => {
	it('shows the ledger newest first, filters blocked events, opens a diff and verifies', async () => {
		const { events, ledger } = await buildMixedLedger();
		const report: VerifyReport = {
			ok: true,
			audit: { events: events.length, intact: true, firstBrokenSeq: null, problem: null },
			trace: { records: 5, intact: true, firstBrokenSeq: null, problem: null, invalid: [] },
			files: {
				checked: 0,
				contentMismatches: [],
				unattributed: [],
				missing: [],
				rangeMismatches: []
			},
			classMismatches: [],
			firstFailure: null
		};
		void ledger;
		const jwtFirst = 'export function sign(payload) {\n\treturn encode(payload);\n}\n';
		const jwtSecond =
			'export function sign(payload) {\n\treturn encode(payload, secret());\n}\n\nexport const algorithm = "HS256";\n';
		const blobs = new Map<string, string>([
			[await contentHash(jwtFirst), jwtFirst],
			[await contentHash(jwtSecond), jwtSecond]
		]);
		const root = mountInBody(TracePanel, {
			events,
			sessions: [{ id: 'session-1', name: 'Builder' }],
			loadBlob: async (hash: string) => blobs.get(hash) ?? null,
			onverify: async () => report
		});
		const rows = () => root.querySelectorAll('.timeline > li');
		expect(rows()).toHaveLength(events.length);
		expect(rows()[0]?.textContent).toContain(`#${events.length}`);
		expect(root.textContent).toContain(`Showing ${events.length} events.`);

		const blocked = root.querySelector('input[type="checkbox"]') as HTMLInputElement;
		blocked.click();
		flushSync();
		expect(rows()).toHaveLength(2);
		expect(rows()[0]?.textContent).toContain('scope_violation');
		blocked.click();
		flushSync();

		const intentFilter = root.querySelector('select') as HTMLSelectElement;
		const noIntent = [...intentFilter.options].find((option) => option.text === 'No intent');
		if (!noIntent) throw new Error('expected a "No intent" option');
		intentFilter.selectedIndex = noIntent.index;
		intentFilter.dispatchEvent(new Event('change', { bubbles: true }));
		flushSync();
		expect(rows().length).toBeGreaterThan(0);
		expect(rows().length).toBeLessThan(events.length);
		expect([...rows()].some((row) => row.textContent?.includes('INT-001'))).toBe(false);
		buttonNamed(root, 'Clear filters')?.click();
		flushSync();
		expect(rows()).toHaveLength(events.length);

		const [newest, human] = [...root.querySelectorAll<HTMLButtonElement>('button.toggle')];
		if (!newest || !human) throw new Error('expected mutation rows');
		expect(newest.getAttribute('aria-expanded')).toBe('false');
		newest.click();
		flushSync();
		expect(newest.getAttribute('aria-expanded')).toBe('true');
		const diff = await until(() =>
			root.querySelector('[aria-label^="Changes to src/auth/jwt.ts (seq"]')
		);
		await until(() => diff.querySelector('.monaco-diff-editor'));
		expect(diff.textContent).not.toContain('is not stored');

		// README's contents are not stored: the hashes and ranges stand in for the diff.
		human.click();
		flushSync();
		await until(() => root.textContent?.includes('is not stored'));
		expect(root.querySelectorAll('.mutation-diff')).toHaveLength(2);
		expect(root.textContent).toContain('line 3');

		buttonNamed(root, 'Verify')?.click();
		await until(() => root.querySelector('[role="status"] .headline'));
		expect(root.querySelector('[role="status"]')?.textContent).toContain('Verified');
	});

	it('caps a long ledger and shows more on request', async () => {
		const { events } = await buildMixedLedger();
		const many = Array.from({ length: 450 }, (_, position) => ({
			...(events[1] as (typeof events)[number]),
			seq: position + 1
		}));
		const root = mountInBody(TracePanel, {
			events: many,
			sessions: [],
			onverify: async () => {
				throw new Error('no export');
			}
		});
		expect(root.querySelectorAll('.timeline > li')).toHaveLength(200);
		buttonNamed(root, 'Show 200 more')?.click();
		flushSync();
		expect(root.querySelectorAll('.timeline > li')).toHaveLength(400);
		buttonNamed(root, 'Show 50 more')?.click();
		flushSync();
		expect(root.querySelectorAll('.timeline > li')).toHaveLength(450);
		buttonNamed(root, 'Verify')?.click();
		await until(() => root.textContent?.includes('Verify could not run: no export'));
	});
});

describe('ExportButtons', () => {
	it('calls the app and shows a failure', async () => {
		const calls: string[] = [];
		const root = mountInBody(ExportButtons, {
			onexportzip: () => {
				calls.push('zip');
			},
			ondownloadtrace: async () => {
				calls.push('trace');
				throw new Error('disk full');
			},
			disabled: false
		});
		buttonNamed(root, 'Export .orchestration')?.click();
		buttonNamed(root, 'Download agent_trace.jsonl')?.click();
		await until(() => root.querySelector('[role="alert"]'));
		expect(calls).toEqual(['zip', 'trace']);
		expect(root.textContent).toContain('The download of agent_trace.jsonl failed: disk full');
	});
});
