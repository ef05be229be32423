import { describe, expect, it } from 'vitest';
import {
	approvalKeyAction,
	armingDelayMs,
	isArmed,
	type ApprovalKeyEvent
} from './approval-keyboard.js';

function key(overrides: Partial<ApprovalKeyEvent> = {}): ApprovalKeyEvent {
	return {
		key: 'Enter',
		repeat: false,
		isComposing: false,
		ctrlKey: false,
		metaKey: false,
		altKey: false,
		shiftKey: false,
		target: { tagName: 'DIALOG' },
		...overrides
	};
}

describe('approvalKeyAction', () => {
	it('approves on Enter on the dialog once armed', () => {
		expect(approvalKeyAction(key(), true)).toBe('approve');
	});

	it('swallows Enter before the request is armed, so a keystroke meant elsewhere never approves', () => {
		expect(approvalKeyAction(key(), false)).toBe('suppress');
		expect(approvalKeyAction(key({ target: { tagName: 'BUTTON' } }), false)).toBe('suppress');
	});

	it('swallows a held Enter, even on a button', () => {
		expect(approvalKeyAction(key({ repeat: true }), true)).toBe('suppress');
		expect(approvalKeyAction(key({ repeat: true, target: { tagName: 'button' } }), true)).toBe(
			'suppress'
		);
	});

	it('leaves Enter in the reason field and in the diff editor alone (a newline, not an answer)', () => {
		expect(approvalKeyAction(key({ target: { tagName: 'TEXTAREA' } }), true)).toBe('native');
		expect(approvalKeyAction(key({ target: { tagName: 'TEXTAREA' }, repeat: true }), false)).toBe(
			'native'
		);
		expect(
			approvalKeyAction(key({ target: { tagName: 'DIV', isContentEditable: true } }), true)
		).toBe('native');
		expect(approvalKeyAction(key({ target: { tagName: 'DIV', insideEditor: true } }), true)).toBe(
			'native'
		);
	});

	it('lets the focused button act (Enter on Reject rejects)', () => {
		expect(approvalKeyAction(key({ target: { tagName: 'BUTTON' } }), true)).toBe('native');
		expect(approvalKeyAction(key({ target: { tagName: 'SUMMARY' } }), true)).toBe('native');
	});

	it('ignores other keys, modified Enter and IME composition', () => {
		expect(approvalKeyAction(key({ key: 'Escape' }), true)).toBe('native');
		expect(approvalKeyAction(key({ key: 'a' }), false)).toBe('native');
		expect(approvalKeyAction(key({ ctrlKey: true }), true)).toBe('native');
		expect(approvalKeyAction(key({ shiftKey: true }), true)).toBe('native');
		expect(approvalKeyAction(key({ isComposing: true }), true)).toBe('native');
		expect(approvalKeyAction(key({ target: null }), true)).toBe('approve');
	});
});

describe('isArmed', () => {
	it('arms after the delay and not before', () => {
		expect(isArmed(1000, 1000)).toBe(false);
		expect(isArmed(1000, 1000 + armingDelayMs - 1)).toBe(false);
		expect(isArmed(1000, 1000 + armingDelayMs)).toBe(true);
	});
});
