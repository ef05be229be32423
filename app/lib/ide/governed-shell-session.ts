import type { ChangeProposal, LineShellSession, ShellSession } from '../../../sandbox/sandbox.js';

/**
 * The person's terminal as a governed session: every line runs as a transaction whose review
 * (asked for anew per line, since the pipeline and the ledger's writability can change) decides
 * what reaches the workspace. A pty session (WebContainer) is returned as it is: its keys go
 * straight to a real shell, and that backend guards its own workspace.
 */
export function governShellSession(
	session: ShellSession,
	reviewFor: () => (proposal: ChangeProposal) => Promise<void>
): ShellSession {
	if (session.mode !== 'line') return session;
	const governed: LineShellSession = {
		mode: 'line',
		get cwd() {
			return session.cwd;
		},
		run: (line, options = {}) => session.run(line, { ...options, review: reviewFor() }),
		dispose: () => session.dispose()
	};
	return governed;
}
