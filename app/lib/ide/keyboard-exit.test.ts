import { describe, expect, it } from 'vitest';
import { editorExitHint, escapeStep, terminalExitHint } from './keyboard-exit.js';

const key = (
	name: string,
	modifiers: Partial<Record<'ctrlKey' | 'altKey' | 'metaKey', boolean>> = {}
) => ({
	key: name,
	ctrlKey: false,
	altKey: false,
	metaKey: false,
	...modifiers
});

describe('Esc then Tab', () => {
	it('leaves on the Tab right after Escape, Shift+Tab included', () => {
		expect(escapeStep(false, key('Escape'))).toBe('arm');
		expect(escapeStep(true, key('Tab'))).toBe('leave');
		// Shift alone (on the way to Shift+Tab) keeps the escape armed.
		expect(escapeStep(true, key('Shift'))).toBe('none');
	});

	it('a Tab without Escape, or after another key, stays with the widget', () => {
		expect(escapeStep(false, key('Tab'))).toBe('none');
		expect(escapeStep(true, key('a'))).toBe('disarm');
		expect(escapeStep(true, key('Tab', { ctrlKey: true }))).toBe('disarm');
	});

	it('the hints name the way out', () => {
		for (const hint of [terminalExitHint, editorExitHint]) expect(hint).toContain('Esc then Tab');
		expect(editorExitHint).toContain('Ctrl+M');
	});
});
