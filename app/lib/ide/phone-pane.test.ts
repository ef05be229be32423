import { describe, expect, it } from 'vitest';
import { hiddenPhonePanes, paneAfterFileOpened } from './phone-pane.js';

describe('phone panes', () => {
	it('shows the editor for a file the person opens', () => {
		for (const current of ['files', 'editor', 'terminal', 'agent'] as const)
			expect(paneAfterFileOpened(current, { working: false, approvalsPending: 0 })).toBe('editor');
	});

	it('keeps the Agent pane while the agent works or an approval waits', () => {
		expect(paneAfterFileOpened('agent', { working: true, approvalsPending: 0 })).toBe('agent');
		expect(paneAfterFileOpened('agent', { working: false, approvalsPending: 1 })).toBe('agent');
		// From the tree, a file opens in the editor even while the agent works.
		expect(paneAfterFileOpened('files', { working: true, approvalsPending: 1 })).toBe('editor');
	});

	it('marks every pane out of sight, the editor behind the terminal included', () => {
		expect([...hiddenPhonePanes('files')].sort()).toEqual([
			'agent',
			'center',
			'editor',
			'terminal'
		]);
		expect([...hiddenPhonePanes('terminal')].sort()).toEqual(['agent', 'editor', 'files']);
		expect([...hiddenPhonePanes('editor')].sort()).toEqual(['agent', 'files', 'terminal']);
		expect([...hiddenPhonePanes('agent')].sort()).toEqual([
			'center',
			'editor',
			'files',
			'terminal'
		]);
	});
});
