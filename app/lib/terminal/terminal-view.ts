import type { FitAddon } from '@xterm/addon-fit';
import type { Terminal } from '@xterm/xterm';
import type { Readline } from 'xterm-readline';
import type {
	FileChange,
	LineShellSession,
	PtyShellSession,
	ShellSession
} from '../../../sandbox/sandbox.js';
import { LineDiscipline } from './line-discipline.js';
import { bindPtySession } from './pty-binding.js';
import { ReadlineEditor } from './readline-editor.js';
import { formatCandidates, type LineCompletion } from './tab-completion.js';
import { eraseLineSequence, startingMessage } from './terminal-text.js';
import { currentColorScheme, watchColorScheme } from '../theme/color-scheme.js';
import {
	terminalColorsFor,
	terminalFontFamily,
	terminalFontSize,
	terminalMinimumContrastRatio
} from './terminal-theme.js';

/**
 * The browser libraries, loaded by the caller through `import()` so none of them is in the
 * initial bundle or the server build. This file only imports their types.
 */
export interface TerminalLibraries {
	Terminal: typeof Terminal;
	FitAddon: typeof FitAddon;
	Readline: typeof Readline;
}

export interface TerminalViewOptions {
	/** Accessible name of the terminal; its input is named "<label> input". */
	label: string;
	screenReaderMode: boolean;
	onChanges: (changes: FileChange[]) => void;
	/** Tab completion for line sessions (tab-completion.ts); without it Tab is ignored there. */
	complete?: (line: string, cwd: string) => LineCompletion;
}

interface Binding {
	dispose(): void;
}

/**
 * One xterm terminal in a container: fitted to it, themed, and bound to at most one shell
 * session at a time (`attach`). Browser only.
 */
export class TerminalView {
	readonly #libraries: TerminalLibraries;
	readonly #container: HTMLElement;
	readonly #options: TerminalViewOptions;
	readonly #terminal: Terminal;
	readonly #fitAddon: FitAddon;
	readonly #resizeObserver: ResizeObserver;
	#session: ShellSession | null | undefined = undefined;
	#binding: Binding | null = null;
	/** Keys typed while no session was bound, handed to the next one. */
	#pendingInput: string[] = [];
	#fitFrame = 0;
	#disposed = false;
	/** Completes the line being edited (line sessions only); null while none is bound. */
	#completeLine: (() => void) | null = null;
	/** Escape was the last key: the next Tab leaves the terminal instead of completing. */
	#escapePressed = false;
	/** Follows the system's light/dark switch live, as the page's own colours do. */
	readonly #stopWatchingColorScheme: () => void;

	constructor(libraries: TerminalLibraries, container: HTMLElement, options: TerminalViewOptions) {
		this.#libraries = libraries;
		this.#container = container;
		this.#options = options;
		this.#terminal = new libraries.Terminal({
			theme: { ...terminalColorsFor(currentColorScheme()) },
			fontFamily: terminalFontFamily,
			fontSize: terminalFontSize,
			lineHeight: 1.2,
			cursorBlink: true,
			cursorStyle: 'block',
			cursorInactiveStyle: 'outline',
			scrollback: 5000,
			minimumContrastRatio: terminalMinimumContrastRatio,
			screenReaderMode: options.screenReaderMode
		});
		this.#fitAddon = new libraries.FitAddon();
		this.#terminal.loadAddon(this.#fitAddon);
		this.#terminal.open(container);
		this.setLabel(options.label);
		this.#stopWatchingColorScheme = watchColorScheme((scheme) => {
			if (!this.#disposed) this.#terminal.options.theme = { ...terminalColorsFor(scheme) };
		});

		container.addEventListener('keydown', this.#onKeydown, { capture: true });
		container.addEventListener('focusout', this.#forgetEscape);
		this.#resizeObserver = new ResizeObserver(this.#scheduleFit);
		this.#resizeObserver.observe(container);
		document.fonts.addEventListener('loadingdone', this.#scheduleFit);
		void document.fonts.ready.then(this.#scheduleFit);
		this.#fit();
	}

	/**
	 * Binds the terminal to `session` (or shows that the sandbox is starting when null),
	 * releasing the previous binding. A running line is aborted; the session is not disposed.
	 */
	attach(session: ShellSession | null): void {
		if (this.#disposed || (session === this.#session && this.#binding !== null)) return;
		this.#detach();
		this.#session = session;
		if (session === null) this.#binding = this.#bindWaiting();
		else if (session.mode === 'line') this.#binding = this.#bindLine(session);
		else this.#binding = this.#bindPty(session);
	}

	/**
	 * Terminal data typed before this view existed (type-ahead.ts): handed to the next shell
	 * attached, as keys typed while no shell is attached are. Call it before the first `attach`.
	 */
	typeAhead(data: readonly string[]): void {
		if (!this.#disposed) this.#pendingInput.push(...data);
	}

	setLabel(label: string): void {
		this.#terminal.textarea?.setAttribute('aria-label', `${label} input`);
	}

	setScreenReaderMode(enabled: boolean): void {
		if (this.#disposed) return;
		this.#terminal.options.screenReaderMode = enabled;
	}

	focus(): void {
		if (!this.#disposed) this.#terminal.focus();
	}

	dispose(): void {
		if (this.#disposed) return;
		this.#detach();
		this.#disposed = true;
		if (this.#fitFrame !== 0) cancelAnimationFrame(this.#fitFrame);
		this.#resizeObserver.disconnect();
		this.#stopWatchingColorScheme();
		document.fonts.removeEventListener('loadingdone', this.#scheduleFit);
		this.#container.removeEventListener('keydown', this.#onKeydown, { capture: true });
		this.#container.removeEventListener('focusout', this.#forgetEscape);
		this.#terminal.dispose();
	}

	#detach(): void {
		const binding = this.#binding;
		this.#binding = null;
		this.#session = undefined;
		binding?.dispose();
	}

	#bindWaiting(): Binding {
		this.#terminal.write(startingMessage);
		const keys = this.#terminal.onData((data) => this.#pendingInput.push(data));
		return {
			dispose: () => {
				keys.dispose();
				this.#terminal.write(eraseLineSequence);
			}
		};
	}

	#bindLine(session: LineShellSession): Binding {
		const terminal = this.#terminal;
		const readline = new this.#libraries.Readline();
		let discipline: LineDiscipline | null = null;
		// The editor subscribes to keys before readline does; see ReadlineEditor.
		const editor = new ReadlineEditor(terminal, readline, {
			onInterrupt: () => discipline?.interrupt(),
			pendingInput: this.#takePendingInput()
		});
		terminal.loadAddon(readline);
		const lineDiscipline = new LineDiscipline({
			session,
			editor,
			onChanges: (changes) => this.#options.onChanges(changes)
		});
		discipline = lineDiscipline;
		void lineDiscipline.start();
		this.#completeLine = () => {
			const complete = this.#options.complete;
			// Only while a prompt is live: during a command, keys are type-ahead for the next one.
			if (!complete || !editor.reading) return;
			const current = readline.getLine();
			const completion = complete(current, session.cwd);
			if (completion.candidates.length > 0) {
				// Listed below the line, then the prompt and the line are drawn again under them.
				const rows = formatCandidates(completion.candidates, terminal.cols);
				readline.print(`\r\n${rows.join('\r\n')}\r\n`);
				readline.updateLine(current);
			} else if (completion.line !== current) {
				readline.updateLine(completion.line);
			}
		};
		return {
			dispose: () => {
				this.#completeLine = null;
				// stop() aborts a running line and awaits it; it never rejects.
				void lineDiscipline.stop();
				editor.dispose();
				readline.dispose();
				// Readline installed a key handler (Shift+Enter); a pty must get every key.
				terminal.attachCustomKeyEventHandler(() => true);
			}
		};
	}

	#bindPty(session: PtyShellSession): Binding {
		return bindPtySession(this.#terminal, session, this.#takePendingInput());
	}

	#takePendingInput(): string[] {
		const pending = this.#pendingInput;
		this.#pendingInput = [];
		return pending;
	}

	/**
	 * Tab completes, as in a shell, and never moves focus by itself (xterm would swallow it;
	 * the browser would move focus). Keyboard users leave the terminal with Shift+Tab (back), or
	 * Escape then Tab (forward), as the terminal's help and the README say. A real shell (pty)
	 * does its own completion: Tab goes to it. Handled in the capture phase, before xterm's
	 * textarea listener sees the key.
	 */
	readonly #onKeydown = (event: KeyboardEvent): void => {
		if (event.key === 'Escape') {
			this.#escapePressed = true;
			return;
		}
		const escaped = this.#escapePressed;
		if (event.key !== 'Shift') this.#escapePressed = false;
		if (event.key !== 'Tab' || event.ctrlKey || event.altKey || event.metaKey) return;
		// Leaving: xterm must not see the key; the browser's default moves focus.
		if (event.shiftKey || escaped) {
			event.stopPropagation();
			return;
		}
		if (this.#session?.mode === 'pty') return;
		event.preventDefault();
		event.stopPropagation();
		this.#completeLine?.();
	};

	/** An Escape pressed before the focus left does not make a later Tab leave at once. */
	readonly #forgetEscape = (): void => {
		this.#escapePressed = false;
	};

	readonly #scheduleFit = (): void => {
		if (this.#disposed || this.#fitFrame !== 0) return;
		this.#fitFrame = requestAnimationFrame(() => {
			this.#fitFrame = 0;
			this.#fit();
		});
	};

	#fit(): void {
		// A hidden pane (collapsed panel, background tab) would fit to a couple of columns.
		if (this.#disposed || this.#container.clientWidth === 0 || this.#container.clientHeight === 0) {
			return;
		}
		this.#fitAddon.fit();
	}
}
