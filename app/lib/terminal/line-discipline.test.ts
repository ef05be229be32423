import { describe, expect, it } from 'vitest';
import type { FileChange, LineShellResult, LineShellSession } from '../../../sandbox/sandbox.js';
import { LineDiscipline, type LineEditor } from './line-discipline.js';
import { clearScreenSequence } from './terminal-text.js';

/** Everything written, prompts included; lines are submitted by the test. */
class FakeEditor implements LineEditor {
	screen = '';
	prompts: string[] = [];
	#submit: ((line: string) => void) | null = null;
	#fail: ((error: Error) => void) | null = null;
	#readWaiters: (() => void)[] = [];

	read(prompt: string): Promise<string> {
		this.screen += prompt;
		this.prompts.push(prompt);
		return new Promise((resolve, reject) => {
			this.#submit = resolve;
			this.#fail = reject;
			for (const waiter of this.#readWaiters.splice(0)) waiter();
		});
	}

	write(text: string): void {
		this.screen += text;
	}

	get reading(): boolean {
		return this.#submit !== null;
	}

	/** Resolves once a prompt is waiting for input. */
	async untilReading(): Promise<void> {
		if (this.reading) return;
		await new Promise<void>((resolve) => this.#readWaiters.push(resolve));
	}

	/** Types `line` and Enter, as readline echoes it. */
	async submit(line: string): Promise<void> {
		await this.untilReading();
		const submit = this.#submit;
		this.#submit = null;
		this.#fail = null;
		this.screen += `${line}\r\n`;
		submit?.(line);
	}

	close(): void {
		this.#fail?.(new Error('closed'));
		this.#submit = null;
	}
}

interface RunCall {
	line: string;
	signal: AbortSignal | undefined;
	output: (chunk: string) => void;
	finish: (result?: Partial<LineShellResult>) => void;
	fail: (error: unknown) => void;
}

/** A session whose runs the test finishes by hand; `cwd` is writable to mimic `cd`. */
class FakeSession implements LineShellSession {
	readonly mode = 'line';
	cwd = '';
	calls: RunCall[] = [];
	#callWaiters: (() => void)[] = [];

	run(
		line: string,
		options?: { signal?: AbortSignal; onOutput?: (chunk: string) => void }
	): Promise<LineShellResult> {
		return new Promise((resolve, reject) => {
			this.calls.push({
				line,
				signal: options?.signal,
				output: (chunk) => options?.onOutput?.(chunk),
				finish: (result) => resolve({ exitCode: 0, interrupted: false, changes: [], ...result }),
				fail: reject
			});
			for (const waiter of this.#callWaiters.splice(0)) waiter();
		});
	}

	async nextCall(): Promise<RunCall> {
		const count = this.calls.length;
		while (this.calls.length === count) {
			await new Promise<void>((resolve) => this.#callWaiters.push(resolve));
		}
		return this.calls[this.calls.length - 1] as RunCall;
	}

	dispose(): void {}
}

function strip(text: string): string {
	// eslint-disable-next-line no-control-regex -- removing SGR colour sequences for assertions
	return text.replace(/\x1b\[[0-9;]*m/g, '');
}

function setUp(onChanges?: (changes: FileChange[]) => void) {
	const editor = new FakeEditor();
	const session = new FakeSession();
	const discipline = new LineDiscipline({ session, editor, onChanges });
	const loop = discipline.start();
	return { editor, session, discipline, loop };
}

const noteChange: FileChange = {
	path: 'note.txt',
	type: 'created',
	before: null,
	after: new TextEncoder().encode('hello\n')
};

describe('LineDiscipline', () => {
	it('prompts with the workspace-relative folder and follows `cd`', async () => {
		const { editor, session } = setUp();
		await editor.untilReading();
		expect(strip(editor.prompts[0] ?? '')).toBe('workspace $ ');

		const run = session.nextCall();
		await editor.submit('cd src');
		session.cwd = 'src';
		(await run).finish();
		await editor.untilReading();
		expect(strip(editor.prompts[1] ?? '')).toBe('workspace/src $ ');
	});

	it('runs the line with a signal and streams output with CR LF line ends, colours kept', async () => {
		const { editor, session } = setUp();
		const run = session.nextCall();
		await editor.submit('ls --color');
		const call = await run;
		expect(call.line).toBe('ls --color');
		expect(call.signal).toBeInstanceOf(AbortSignal);
		call.output('\x1b[34msrc\x1b[0m\nnote');
		call.output('.txt\n');
		call.finish();
		await editor.untilReading();
		expect(editor.screen).toContain('\x1b[34msrc\x1b[0m\r\nnote.txt\r\n');
		expect(editor.screen).not.toMatch(/[^\r]\n/);
	});

	it('starts the next prompt on a new line when output did not end with one', async () => {
		const { editor, session } = setUp();
		const run = session.nextCall();
		await editor.submit('printf hi');
		const call = await run;
		call.output('hi');
		call.finish();
		await editor.untilReading();
		expect(strip(editor.screen)).toBe('workspace $ printf hi\r\nhi\r\nworkspace $ ');
	});

	it('reprompts on empty and blank lines without running anything', async () => {
		const { editor, session } = setUp();
		await editor.submit('');
		await editor.submit('   \t ');
		await editor.untilReading();
		expect(session.calls).toHaveLength(0);
		expect(editor.prompts).toHaveLength(3);
	});

	it('clears the screen for `clear` without running it in the session', async () => {
		const { editor, session } = setUp();
		await editor.submit('  clear ');
		await editor.untilReading();
		expect(session.calls).toHaveLength(0);
		expect(editor.screen).toContain(clearScreenSequence);
		const afterClear = editor.screen.slice(editor.screen.indexOf(clearScreenSequence));
		expect(strip(afterClear)).toBe(`${clearScreenSequence}workspace $ `);
	});

	it('passes `clear` with arguments or inside a longer line to the session', async () => {
		const { editor, session } = setUp();
		const run = session.nextCall();
		await editor.submit('clear && ls');
		expect((await run).line).toBe('clear && ls');
	});

	it('aborts the running line on interrupt, echoes ^C and prompts once it has stopped', async () => {
		const { editor, session, discipline } = setUp();
		const run = session.nextCall();
		await editor.submit('while true; do :; done');
		const call = await run;
		expect(discipline.isRunning).toBe(true);
		expect(discipline.interrupt()).toBe(true);
		expect(call.signal?.aborted).toBe(true);
		expect(editor.screen.endsWith('^C\r\n')).toBe(true);
		expect(editor.reading).toBe(false);

		call.finish({ exitCode: 130, interrupted: true });
		await editor.untilReading();
		expect(discipline.isRunning).toBe(false);
		expect(strip(editor.screen)).toBe('workspace $ while true; do :; done\r\n^C\r\nworkspace $ ');
	});

	it('puts ^C after partial output and keeps what the command still prints', async () => {
		const { editor, session, discipline } = setUp();
		const run = session.nextCall();
		await editor.submit('slow');
		const call = await run;
		call.output('working');
		discipline.interrupt();
		call.output('Interrupted.\n');
		call.finish({ exitCode: 124, interrupted: true });
		await editor.untilReading();
		expect(strip(editor.screen)).toBe(
			'workspace $ slow\r\nworking^C\r\nInterrupted.\r\nworkspace $ '
		);
	});

	it('does nothing on interrupt when no line is running', async () => {
		const { editor, discipline } = setUp();
		await editor.untilReading();
		const before = editor.screen;
		expect(discipline.interrupt()).toBe(false);
		expect(editor.screen).toBe(before);
	});

	it('reports changed files after the line, and only when there are some', async () => {
		const reported: FileChange[][] = [];
		const { editor, session } = setUp((changes) => reported.push(changes));
		let run = session.nextCall();
		await editor.submit('echo hello > note.txt');
		(await run).finish({ changes: [noteChange] });
		run = session.nextCall();
		await editor.submit('ls');
		(await run).finish({ changes: [] });
		await editor.untilReading();
		expect(reported).toEqual([[noteChange]]);
	});

	it('reports changes of an interrupted line too', async () => {
		const reported: FileChange[][] = [];
		const { editor, session, discipline } = setUp((changes) => reported.push(changes));
		const run = session.nextCall();
		await editor.submit('yes > note.txt');
		const call = await run;
		discipline.interrupt();
		call.finish({ interrupted: true, exitCode: 124, changes: [noteChange] });
		await editor.untilReading();
		expect(reported).toEqual([[noteChange]]);
	});

	it('prints a rejected run in red with a plain message and prompts again', async () => {
		const { editor, session } = setUp();
		const run = session.nextCall();
		await editor.submit('ls');
		const call = await run;
		call.output('partial');
		call.fail(new Error('The sandbox worker crashed.'));
		await editor.untilReading();
		expect(editor.screen).toContain(
			'partial\r\n\x1b[31mThe command could not run: The sandbox worker crashed.\x1b[0m\r\n'
		);
		expect(editor.screen).not.toContain('at ');
		expect(strip(editor.screen).endsWith('workspace $ ')).toBe(true);
	});

	it('prints a run that throws synchronously, or rejects with a non-Error, the same way', async () => {
		const editor = new FakeEditor();
		let attempts = 0;
		const session: LineShellSession = {
			mode: 'line',
			cwd: '',
			run() {
				attempts += 1;
				if (attempts === 1) throw new TypeError('session is closed');
				return Promise.reject({ code: 'EPIPE' });
			},
			dispose() {}
		};
		void new LineDiscipline({ session, editor }).start();
		await editor.submit('ls');
		await editor.submit('pwd');
		await editor.untilReading();
		expect(editor.screen).toContain('\x1b[31mThe command could not run: session is closed\x1b[0m');
		expect(editor.screen).toContain('\x1b[31mThe command could not run: {"code":"EPIPE"}\x1b[0m');
		expect(editor.prompts).toHaveLength(3);
	});

	it('strips escape sequences from error messages so they cannot drive the terminal', async () => {
		const { editor, session } = setUp();
		const run = session.nextCall();
		await editor.submit('ls');
		(await run).fail(new Error('bad\x1b]0;title\x07 thing\nsecond line'));
		await editor.untilReading();
		expect(editor.screen).toContain(
			'\x1b[31mThe command could not run: bad]0;title thing\r\nsecond line\x1b[0m\r\n'
		);
	});

	it('stays quiet when the run rejects with an AbortError after an interrupt', async () => {
		const { editor, session, discipline } = setUp();
		const run = session.nextCall();
		await editor.submit('sleep 10');
		const call = await run;
		discipline.interrupt();
		call.fail(new DOMException('The operation was aborted.', 'AbortError'));
		await editor.untilReading();
		expect(editor.screen).not.toContain('could not run');
	});

	it('keeps the loop going when the change listener throws, and says so', async () => {
		const { editor, session } = setUp(() => {
			throw new Error('tree is gone');
		});
		const run = session.nextCall();
		await editor.submit('touch a');
		(await run).finish({ changes: [noteChange] });
		await editor.untilReading();
		expect(editor.screen).toContain('The IDE could not take in the changed files: tree is gone');
		expect(editor.prompts).toHaveLength(2);
	});

	it('stop() aborts the running line, waits for it and writes nothing more', async () => {
		const reported: FileChange[][] = [];
		const { editor, session, discipline } = setUp((changes) => reported.push(changes));
		const run = session.nextCall();
		await editor.submit('while true; do :; done');
		const call = await run;

		let stopped = false;
		const stopping = discipline.stop().then(() => (stopped = true));
		expect(call.signal?.aborted).toBe(true);
		await Promise.resolve();
		expect(stopped).toBe(false);

		const screenAtStop = editor.screen;
		call.output('late output\n');
		call.finish({ exitCode: 124, interrupted: true, changes: [noteChange] });
		await stopping;
		expect(editor.screen).toBe(screenAtStop);
		expect(editor.reading).toBe(false);
		// The files did change: the IDE still hears about it.
		expect(reported).toEqual([[noteChange]]);
		expect(discipline.interrupt()).toBe(false);
	});

	it('stop() settles even when the aborted run rejects, and is idempotent', async () => {
		const { editor, session, discipline } = setUp();
		const run = session.nextCall();
		await editor.submit('sleep 1');
		const call = await run;
		const first = discipline.stop();
		const second = discipline.stop();
		call.fail(new Error('worker terminated'));
		await expect(Promise.all([first, second])).resolves.toBeDefined();
		expect(editor.screen).not.toContain('worker terminated');
	});

	it('ends the loop when the editor rejects a read', async () => {
		const { editor, loop } = setUp();
		await editor.untilReading();
		editor.close();
		await expect(loop).resolves.toBeUndefined();
	});

	it('refuses to start twice', () => {
		const { discipline } = setUp();
		expect(() => discipline.start()).toThrow(/already been started/);
	});
});
