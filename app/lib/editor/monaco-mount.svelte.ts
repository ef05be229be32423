import type { MonacoModule } from './monaco-instance.js';

export interface MonacoSession {
	dispose(): void;
}

/** Creates the session on its host once Monaco has loaded. */
export type MonacoSessionFactory<Session extends MonacoSession> = (
	monaco: MonacoModule,
	host: HTMLElement
) => Session;

export type MonacoMountStatus = 'loading' | 'ready' | 'failed';

/**
 * The lifecycle CodeEditor.svelte and DiffEditor.svelte share: load Monaco and the session's code
 * on first show (both lazily, so neither reaches the initial route bundle), create the session
 * unless the component has gone meanwhile, turn any failure into a message with a retry, and
 * dispose the session on retry and on unmount.
 */
export class MonacoMount<Session extends MonacoSession> {
	session: Session | null = $state.raw(null);
	status: MonacoMountStatus = $state('loading');
	failure = $state('');
	private mounted = false;

	constructor(
		/** The element Monaco mounts into; undefined until the component has rendered it. */
		private readonly host: () => HTMLElement | undefined,
		/** Imports the session's module (with `import()`) and returns how to create one. */
		private readonly loadSession: () => Promise<MonacoSessionFactory<Session>>
	) {}

	/** For onMount: starts loading and returns the cleanup. */
	mount(): () => void {
		this.mounted = true;
		void this.start();
		return () => {
			this.mounted = false;
			this.release();
		};
	}

	/** (Re)creates the session: on mount, and from the "Try again" button. */
	async start(): Promise<void> {
		this.release();
		this.status = 'loading';
		try {
			const [{ loadMonaco }, createSession] = await Promise.all([
				import('./monaco-loader.js'),
				this.loadSession()
			]);
			const monaco = await loadMonaco();
			const host = this.host();
			if (!this.mounted || !host) return;
			this.session = createSession(monaco, host);
			this.status = 'ready';
		} catch (error) {
			if (!this.mounted) return;
			this.fail(error);
		}
	}

	/** Applies a prop change to the session, if there is one; a throw shows the failure. */
	update(change: (session: Session) => void): void {
		const session = this.session;
		if (!session) return;
		try {
			change(session);
		} catch (error) {
			this.fail(error);
		}
	}

	private fail(error: unknown): void {
		this.failure = error instanceof Error ? error.message : String(error);
		this.status = 'failed';
	}

	private release(): void {
		this.session?.dispose();
		this.session = null;
	}
}
