import type { FileChange, LineShellResult, LineShellSession } from '../../../sandbox/sandbox.js';
import { formatPrompt } from './shell-prompt.js';
import {
	clearScreenSequence,
	createNewlineTranslator,
	describeError,
	red
} from './terminal-text.js';

/**
 * What the line discipline needs from the terminal: a line editor (xterm-readline in the page,
 * a fake in tests). Editing keys, history and Ctrl+C at the prompt are the editor's business.
 */
export interface LineEditor {
	/**
	 * Shows `prompt` and resolves with the line the person submits. May never settle when the
	 * terminal goes away; may reject to end the discipline's loop.
	 */
	read(prompt: string): Promise<string>;
	/** Writes terminal-ready text: CR LF line ends, ANSI sequences as they are. */
	write(text: string): void;
}

export interface LineDisciplineOptions {
	session: LineShellSession;
	editor: LineEditor;
	/** Files the last line created, modified or deleted; only called when there are some. */
	onChanges?: (changes: FileChange[]) => void;
}

interface RunningCommand {
	controller: AbortController;
	/** Settles when the session's `run` settles; never rejects. */
	settled: Promise<void>;
}

/**
 * Drives a line-mode shell session from a terminal: prompt, run the submitted line with its
 * output streamed to the screen, Ctrl+C to abort it, report the files it changed, prompt again.
 */
export class LineDiscipline {
	readonly #session: LineShellSession;
	readonly #editor: LineEditor;
	readonly #onChanges: ((changes: FileChange[]) => void) | undefined;
	#running: RunningCommand | null = null;
	#stopped = false;
	#started = false;
	/** Whether the cursor is at the start of a line, so the prompt never lands mid-output. */
	#atLineStart = true;

	constructor(options: LineDisciplineOptions) {
		this.#session = options.session;
		this.#editor = options.editor;
		this.#onChanges = options.onChanges;
	}

	/** True while a submitted line is running. */
	get isRunning(): boolean {
		return this.#running !== null;
	}

	/**
	 * Starts the prompt loop. The promise settles when the loop ends: after `stop()` or when the
	 * editor rejects a read. It never rejects.
	 */
	start(): Promise<void> {
		if (this.#started) throw new Error('This line discipline has already been started.');
		this.#started = true;
		return this.#loop();
	}

	/**
	 * Ctrl+C while a line runs: echoes `^C` and aborts the command; the prompt returns when the
	 * session has stopped it. Returns false (and does nothing) when no line is running.
	 */
	interrupt(): boolean {
		const running = this.#running;
		if (running === null || this.#stopped) return false;
		this.#write('^C\r\n');
		running.controller.abort();
		return true;
	}

	/**
	 * Ends the loop and aborts a running line, resolving once the session has settled it, so no
	 * command is left running unobserved. Writes nothing more to the editor. Idempotent.
	 */
	async stop(): Promise<void> {
		this.#stopped = true;
		const running = this.#running;
		if (running === null) return;
		running.controller.abort();
		await running.settled;
	}

	async #loop(): Promise<void> {
		while (!this.#stopped) {
			if (!this.#atLineStart) this.#write('\r\n');
			let line: string;
			try {
				line = await this.#editor.read(formatPrompt(this.#session.cwd));
			} catch {
				return;
			}
			if (this.#stopped) return;
			// A submitted line leaves the cursor on a fresh line.
			this.#atLineStart = true;
			await this.#execute(line);
		}
	}

	async #execute(line: string): Promise<void> {
		if (line.trim() === '') return;
		if (/^\s*clear\s*$/.test(line)) {
			this.#write(clearScreenSequence);
			this.#atLineStart = true;
			return;
		}

		const controller = new AbortController();
		const translate = createNewlineTranslator();
		const onOutput = (chunk: string): void => {
			if (typeof chunk === 'string') this.#write(translate(chunk));
		};
		let run: Promise<LineShellResult>;
		try {
			run = this.#session.run(line, { signal: controller.signal, onOutput });
		} catch (error) {
			run = Promise.reject(error);
		}
		this.#running = {
			controller,
			settled: run.then(
				() => undefined,
				() => undefined
			)
		};

		try {
			const result = await run;
			// Changes are reported even after stop(): the files did change.
			if (result.changes.length > 0) this.#reportChanges(result.changes);
		} catch (error) {
			if (!(controller.signal.aborted && isAbortError(error))) {
				const reason = describeError(error);
				this.#writeError(
					reason === '' ? 'The command could not run.' : `The command could not run: ${reason}`
				);
			}
		} finally {
			this.#running = null;
		}
	}

	#reportChanges(changes: FileChange[]): void {
		if (this.#onChanges === undefined) return;
		try {
			this.#onChanges(changes);
		} catch (error) {
			// The command itself succeeded; say that the IDE may now show stale files.
			this.#writeError(`The IDE could not take in the changed files: ${describeError(error)}`);
		}
	}

	#writeError(message: string): void {
		if (!this.#atLineStart) this.#write('\r\n');
		this.#write(`${red(createNewlineTranslator()(message))}\r\n`);
	}

	#write(text: string): void {
		if (this.#stopped || text.length === 0) return;
		this.#editor.write(text);
		this.#atLineStart = text.endsWith('\n');
	}
}

function isAbortError(error: unknown): boolean {
	return (
		typeof error === 'object' &&
		error !== null &&
		'name' in error &&
		(error.name === 'AbortError' || error.name === 'TimeoutError')
	);
}
