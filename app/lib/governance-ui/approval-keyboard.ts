/**
 * Keyboard rules of the approval modal. A modal that opens by itself while the human is typing
 * elsewhere must not turn their next keystroke into an approval, so every answer waits for the
 * request to have been on screen for `armingDelayMs`, and a held key never answers twice.
 */

/** How long a request must have been visible before a key or click can answer it. */
export const armingDelayMs = 500;

/** The parts of a KeyboardEvent the rules read (a plain object in tests). */
export interface ApprovalKeyEvent {
	key: string;
	repeat: boolean;
	isComposing: boolean;
	ctrlKey: boolean;
	metaKey: boolean;
	altKey: boolean;
	shiftKey: boolean;
	target: {
		tagName?: string;
		isContentEditable?: boolean;
		/** Inside a Monaco editor, whose keys are its own (it may use a div, not a textarea). */
		insideEditor?: boolean;
	} | null;
}

/**
 * `approve`: Enter on the dialog itself; `suppress`: swallow the key (a held Enter, or any Enter
 * before the request is armed); `native`: let the focused control handle it (Enter on "Reject"
 * rejects, Enter in the reason field is a newline).
 */
export type ApprovalKeyAction = 'approve' | 'suppress' | 'native';

const textEntryTags = new Set(['TEXTAREA', 'INPUT', 'SELECT']);
const activatingTags = new Set(['BUTTON', 'A', 'SUMMARY']);

export function approvalKeyAction(event: ApprovalKeyEvent, armed: boolean): ApprovalKeyAction {
	if (event.key !== 'Enter' || event.isComposing) return 'native';
	const tag = event.target?.tagName?.toUpperCase() ?? '';
	if (textEntryTags.has(tag) || event.target?.isContentEditable || event.target?.insideEditor) {
		return 'native';
	}
	if (event.repeat || !armed) return 'suppress';
	if (activatingTags.has(tag)) return 'native';
	if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return 'native';
	return 'approve';
}

export function isArmed(shownAtMs: number, nowMs: number): boolean {
	return nowMs - shownAtMs >= armingDelayMs;
}
