import { describe, expect, it } from 'vitest';
import { AppDialogs } from './app-dialogs.svelte.js';

describe('AppDialogs', () => {
	it('resolves a confirm with the answer and closes', async () => {
		const dialogs = new AppDialogs();
		const answer = dialogs.confirm({ title: 'Reset?', message: 'All is lost.' });
		expect(dialogs.current).toMatchObject({ kind: 'confirm', title: 'Reset?', confirmLabel: 'OK' });
		dialogs.settle(true);
		expect(await answer).toBe(true);
		expect(dialogs.current).toBeNull();
	});

	it('resolves a prompt with the text, or null when cancelled', async () => {
		const dialogs = new AppDialogs();
		const named = dialogs.prompt({ title: 'New file', label: 'Name', value: 'src/' });
		expect(dialogs.current).toMatchObject({ kind: 'prompt', value: 'src/' });
		dialogs.settle('src/a.ts');
		expect(await named).toBe('src/a.ts');
		const cancelled = dialogs.prompt({ title: 'New file', label: 'Name' });
		dialogs.settle(null);
		expect(await cancelled).toBeNull();
	});

	it('cancels an open request when another one comes', async () => {
		const dialogs = new AppDialogs();
		const first = dialogs.confirm({ title: 'One', message: '' });
		const second = dialogs.confirm({ title: 'Two', message: '' });
		expect(await first).toBe(false);
		expect(dialogs.current?.title).toBe('Two');
		dialogs.settle(true);
		expect(await second).toBe(true);
	});
});
