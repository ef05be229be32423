/**
 * Which pane a phone (≤ 700 px, one pane at a time) shows. Pure: the page keeps the state.
 */
export type PhonePane = 'files' | 'editor' | 'terminal' | 'agent';

/** The width at and below which the workbench shows one pane at a time (the CSS uses the same). */
export const phoneMediaQuery = '(max-width: 700px)';

/**
 * After a file became the editor's active one. A file the person opened shows the editor; a
 * file the agent wrote (the editor follows the agent's writes) must not pull the learner away
 * from the chat while the agent works or waits for an approval: they stay on the Agent pane.
 */
export function paneAfterFileOpened(
	current: PhonePane,
	agent: { working: boolean; approvalsPending: number }
): PhonePane {
	if (current === 'agent' && (agent.working || agent.approvalsPending > 0)) return 'agent';
	return 'editor';
}

/**
 * The panes of the workbench (the page's `data-phone` names, `center` holding the editor and the
 * terminal) that are out of sight on a phone, so the page marks them `inert`: out of the
 * keyboard order and the accessibility tree, not only off screen.
 */
export function hiddenPhonePanes(
	shown: PhonePane
): Set<'files' | 'center' | 'editor' | 'terminal' | 'agent'> {
	const all = ['files', 'center', 'editor', 'terminal', 'agent'] as const;
	const visible = new Set<string>(
		shown === 'editor' || shown === 'terminal' ? ['center', shown] : [shown]
	);
	return new Set(all.filter((pane) => !visible.has(pane)));
}
