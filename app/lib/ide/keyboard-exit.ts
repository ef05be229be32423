/**
 * The way out of the two places where Tab does not move focus (the terminal completes, the
 * editor indents), as VS Code does it: a hint shown while focus is inside, also the textbox's
 * accessible description, and "Esc then Tab" that leaves.
 */

export const terminalExitHint =
	'Tab completes here. To move focus: press Esc then Tab (Shift+Tab goes back).';

export const editorExitHint =
	'Tab indents here. To move focus: press Esc then Tab, or Ctrl+M to make Tab move focus.';

/** The textboxes the widgets make for themselves (xterm's and Monaco's), possibly later. */
const textboxSelector = 'textarea, [role="textbox"]';

/**
 * Gives every textbox inside `container` the hint as `aria-describedby`, now and whenever the
 * widget (re)creates one. Returns the cleanup.
 */
export function describeTextboxes(container: HTMLElement, hintId: string): () => void {
	const describe = () => {
		for (const textbox of container.querySelectorAll(textboxSelector)) {
			const ids = (textbox.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
			if (!ids.includes(hintId))
				textbox.setAttribute('aria-describedby', [...ids, hintId].join(' '));
		}
	};
	describe();
	const observer = new MutationObserver(describe);
	observer.observe(container, { childList: true, subtree: true });
	return () => observer.disconnect();
}

/**
 * What a key does to the "Esc then Tab" escape: `arm` after Escape, `leave` for the Tab that
 * follows it (the widget must not see it; the browser moves focus), `disarm` for anything else.
 */
export function escapeStep(
	armed: boolean,
	key: { key: string; ctrlKey: boolean; altKey: boolean; metaKey: boolean }
): 'arm' | 'leave' | 'disarm' | 'none' {
	if (key.key === 'Escape') return 'arm';
	if (key.key === 'Tab' && armed && !key.ctrlKey && !key.altKey && !key.metaKey) return 'leave';
	if (key.key === 'Shift') return 'none';
	return armed ? 'disarm' : 'none';
}

/**
 * "Esc then Tab" leaves `container` (used for Monaco; the terminal has its own in
 * terminal-view.ts): the Tab is stopped before the widget in the capture phase and the browser
 * moves focus as for any Tab. Returns the cleanup.
 */
export function escapeThenTabLeaves(container: HTMLElement): () => void {
	let armed = false;
	const onKeyDown = (event: KeyboardEvent) => {
		const step = escapeStep(armed, event);
		if (step === 'arm') armed = true;
		else if (step === 'disarm') armed = false;
		else if (step === 'leave') {
			armed = false;
			event.stopPropagation();
		}
	};
	const onFocusOut = () => (armed = false);
	container.addEventListener('keydown', onKeyDown, true);
	container.addEventListener('focusout', onFocusOut);
	return () => {
		container.removeEventListener('keydown', onKeyDown, true);
		container.removeEventListener('focusout', onFocusOut);
	};
}
