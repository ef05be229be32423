import { flushSync, mount, unmount } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import type { ApprovalAnswer, ApprovalPrompt } from '../../../hooks/pipeline/ports.js';
import { armingDelayMs } from './approval-keyboard.js';
import { ApprovalQueue } from './approval-queue.svelte.js';
import ApprovalModal from './ApprovalModal.svelte';
import SettingsDialog from './SettingsDialog.svelte';
import { providers } from '../agent/provider-settings.js';
import type { AgentSettings, SavedSettings } from './settings-form.js';

/**
 * What only a real browser shows: the native dialog's focus, Enter and Esc (Chromium may close a
 * modal dialog without a cancelable `cancel`), and the Settings form's fields.
 */

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
	for (const component of mounted.splice(0)) unmount(component);
	document.body.replaceChildren();
});

function prompt(overrides: Partial<ApprovalPrompt> = {}): ApprovalPrompt {
	return {
		hook: 'approval-policy',
		reasons: ['The agent wants to change src/a.ts.'],
		intentId: 'INT-001',
		sessionId: 'builder',
		tool: 'write_to_file',
		toolCallId: 'call-1',
		input: { path: 'src/a.ts', content: 'b' },
		preview: [{ path: 'src/a.ts', before: 'a\n', after: 'b\n' }],
		...overrides
	};
}

function mountModal(props: Record<string, unknown> = {}) {
	const queue = new ApprovalQueue();
	const target = document.createElement('div');
	document.body.append(target);
	mounted.push(mount(ApprovalModal, { target, props: { queue, ...props } }));
	return queue;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const armed = () => sleep(armingDelayMs + 100);
const dialog = () => document.querySelector('dialog.approval') as HTMLDialogElement;
const button = (name: string) =>
	[...document.querySelectorAll('button')].find((element) => element.textContent?.trim() === name);

function track(promise: Promise<ApprovalAnswer>) {
	const state: { answer: ApprovalAnswer | null } = { answer: null };
	void promise.then((answer) => (state.answer = answer));
	return state;
}

describe('ApprovalModal', () => {
	it('opens modally with focus on Approve, shows the facts, and Enter approves once armed', async () => {
		const queue = mountModal({ sessionName: (id: string) => `Session ${id}` });
		const answer = track(queue.request(prompt()));
		flushSync();
		await sleep(50);
		expect(dialog().open).toBe(true);
		expect(document.activeElement?.textContent?.trim()).toBe('Approve');
		expect(dialog().textContent).toContain('Session builder');
		expect(dialog().textContent).toContain('INT-001');
		expect(dialog().textContent).toContain('The agent wants to change src/a.ts.');
		expect(
			document.querySelector('[aria-label="Changed: src/a.ts, before and after"]')
		).not.toBeNull();

		// Too soon: a keystroke meant for something else must not approve.
		await userEvent.keyboard('{Enter}');
		await sleep(20);
		expect(answer.answer).toBeNull();

		await armed();
		await userEvent.keyboard('{Enter}');
		await sleep(20);
		expect(answer.answer).toEqual({ approved: true });
		await sleep(20);
		expect(dialog().open).toBe(false);
	});

	it('keeps Enter in the reason field a newline and sends the reason with Esc', async () => {
		const queue = mountModal();
		const answer = track(queue.request(prompt()));
		flushSync();
		await armed();
		// Monaco's diff editors have textareas of their own: find the reason field by its label.
		const reason = [...document.querySelectorAll('textarea')].find(
			(candidate) => candidate.labels?.[0]?.textContent === 'Reason (sent to the agent)'
		) as HTMLTextAreaElement;
		expect(reason).toBeDefined();
		await userEvent.click(reason);
		await userEvent.keyboard('use src/b.ts{Enter}instead');
		expect(reason.value).toBe('use src/b.ts\ninstead');
		expect(answer.answer).toBeNull();
		await userEvent.keyboard('{Escape}');
		await sleep(20);
		expect(answer.answer).toEqual({ approved: false, reason: 'use src/b.ts\ninstead' });
	});

	it('answers every queued request with Esc, even when the browser closes the dialog itself', async () => {
		const queue = mountModal();
		const first = track(queue.request(prompt({ toolCallId: 'one' })));
		const second = track(queue.request(prompt({ toolCallId: 'two', command: undefined })));
		flushSync();
		await sleep(20);
		expect(dialog().textContent).toContain('1 more waiting');
		await armed();
		await userEvent.keyboard('{Escape}');
		await sleep(20);
		expect(first.answer).toEqual({ approved: false });
		expect(second.answer).toBeNull();
		expect(dialog().open).toBe(true);
		expect(dialog().textContent).not.toContain('more waiting');
		expect(document.activeElement?.textContent?.trim()).toBe('Approve');
		await armed();
		// A second Esc without a click between: Chromium's close watcher may skip the cancelable
		// cancel and close the dialog directly.
		await userEvent.keyboard('{Escape}');
		await sleep(50);
		expect(second.answer).toEqual({ approved: false });
		expect(dialog().open).toBe(false);
	});

	it('reopens instead of dropping a request the human has not seen when the dialog is closed', async () => {
		const queue = mountModal();
		const answer = track(queue.request(prompt()));
		flushSync();
		await sleep(20);
		dialog().close();
		await sleep(50);
		expect(answer.answer).toBeNull();
		expect(dialog().open).toBe(true);
	});

	it('ignores a double click landing on the next request', async () => {
		const queue = mountModal();
		const first = track(queue.request(prompt({ toolCallId: 'one' })));
		const second = track(queue.request(prompt({ toolCallId: 'two' })));
		flushSync();
		await armed();
		await userEvent.dblClick(button('Approve')!);
		await sleep(50);
		expect(first.answer).toEqual({ approved: true });
		expect(second.answer).toBeNull();
	});

	it('offers Approve all for this intent only when there is an intent', async () => {
		const queue = mountModal();
		const withIntent = track(queue.request(prompt()));
		flushSync();
		await armed();
		await userEvent.click(button('Approve all for this intent')!);
		await sleep(20);
		expect(withIntent.answer).toEqual({ approved: true, remember: 'intent' });

		const withoutIntent = track(queue.request(prompt({ intentId: undefined, toolCallId: 'two' })));
		flushSync();
		await armed();
		expect(button('Approve all for this intent')).toBeUndefined();
		await userEvent.click(button('Reject')!);
		await sleep(20);
		expect(withoutIntent.answer).toEqual({ approved: false });
	});

	it('shows a command, its folder and why it is destructive', async () => {
		const queue = mountModal();
		void queue.request(
			prompt({
				tool: 'execute_command',
				preview: undefined,
				command: {
					command: 'rm -rf dist',
					cwd: 'web',
					classification: 'destructive',
					reasons: ['`rm` deletes files']
				}
			})
		);
		flushSync();
		await sleep(20);
		const text = dialog().textContent ?? '';
		expect(text).toContain('rm -rf dist');
		expect(text).toContain('web');
		expect(text).toContain('`rm` deletes files');
		expect(text).toContain('Destructive');
	});

	it('predicts a command’s writes and warns when it may write outside the scope', async () => {
		const queue = mountModal();
		void queue.request(
			prompt({
				tool: 'execute_command',
				preview: undefined,
				intentId: 'INT-001',
				command: {
					command: 'cd src && echo x > ../outside.txt',
					cwd: '.',
					classification: 'destructive',
					reasons: [],
					writes: [],
					writesUnknown: true,
					scope: ['src/auth/**']
				}
			})
		);
		flushSync();
		await sleep(20);
		const note = dialog().querySelector('[role="note"]');
		expect(note?.textContent).toContain("INT-001's scope (src/auth/**)");
		expect(note?.textContent).toContain('refused and put back');
	});

	it('shows a scope expansion with its own wording and the current scope', async () => {
		const queue = mountModal({
			currentScope: (intentId: string) => (intentId === 'INT-002' ? ['src/a/**'] : null)
		});
		const answer = track(
			queue.request(
				prompt({
					tool: 'request_scope_expansion',
					preview: undefined,
					input: { intent_id: 'INT-002', paths: ['src/b/**', 'src/a/**'], reason: 'b calls a' }
				})
			)
		);
		flushSync();
		await armed();
		const text = dialog().textContent ?? '';
		expect(text).toContain('src/b/**');
		expect(text).toContain('b calls a');
		expect(text).toContain('(already in scope)');
		expect(button('Approve')).toBeUndefined();
		expect(button('Approve all for this intent')).toBeUndefined();
		expect(document.activeElement?.textContent?.trim()).toBe('Add to scope');
		await userEvent.click(button('Refuse')!);
		await sleep(20);
		expect(answer.answer).toEqual({ approved: false });
	});
});

describe('SettingsDialog', () => {
	function mountSettings(settings: AgentSettings | null) {
		const saved: SavedSettings[] = [];
		let forgotten = 0;
		const target = document.createElement('div');
		document.body.append(target);
		mounted.push(
			mount(SettingsDialog, {
				target,
				props: {
					settings,
					onsave: (value: SavedSettings) => void saved.push(value),
					onforget: () => void forgotten++
				}
			})
		);
		return { saved, forgotten: () => forgotten };
	}
	const field = (label: string) =>
		[...document.querySelectorAll('label')].find((element) => element.textContent === label)
			?.control as HTMLInputElement | HTMLSelectElement | undefined;

	it('shows the fields each provider uses and validates inline', async () => {
		const { saved } = mountSettings({ provider: 'demo', model: 'scripted' });
		await userEvent.click(button('Settings')!);
		expect(field('Provider')?.value).toBe('demo');
		expect(field('API key')).toBeUndefined();
		expect(field('Step cap')?.value).toBe('25');

		await userEvent.selectOptions(field('Provider') as HTMLSelectElement, 'openai');
		const key = field('API key') as HTMLInputElement;
		expect(key.type).toBe('password');
		expect(key.autocomplete).toBe('off');
		expect(document.body.textContent).toContain(
			'Stored only in this browser. Never exported, shared or logged.'
		);
		expect((field('Model') as HTMLInputElement).placeholder).toBe(providers.openai.defaultModel);

		await userEvent.click(button('Save')!);
		expect(saved).toEqual([]);
		expect(document.body.textContent).toContain('Enter your OpenAI API key');
		expect(document.activeElement).toBe(field('API key'));
		expect(field('API key')?.getAttribute('aria-invalid')).toBe('true');

		await userEvent.fill(field('API key') as HTMLInputElement, 'sk-test');
		await userEvent.click(button('Save')!);
		expect(saved).toEqual([
			{ provider: 'openai', model: providers.openai.defaultModel, apiKey: 'sk-test', stepCap: 25 }
		]);
		expect((document.querySelector('dialog.settings') as HTMLDialogElement).open).toBe(false);
	});

	it('shows Base URL for OpenAI-compatible, and Forget key calls onforget', async () => {
		const { forgotten } = mountSettings({ provider: 'openai', model: 'gpt-4.1', apiKey: 'sk-1' });
		await userEvent.click(button('Settings')!);
		expect(field('API key')?.value).toBe('sk-1');
		await userEvent.selectOptions(field('Provider') as HTMLSelectElement, 'openai-compatible');
		expect(field('Base URL')).toBeDefined();
		expect(field('API key')?.value).toBe('');
		await userEvent.selectOptions(field('Provider') as HTMLSelectElement, 'openai');
		expect(field('API key')?.value).toBe('sk-1');
		await userEvent.click(button('Forget key')!);
		expect(forgotten()).toBe(1);
		expect(field('API key')?.value).toBe('');
		await userEvent.click(button('Cancel')!);
		expect((document.querySelector('dialog.settings') as HTMLDialogElement).open).toBe(false);
	});
});
