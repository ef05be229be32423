import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Readline } from 'xterm-readline';
import type { LineShellResult, LineShellSession } from '../../../sandbox/sandbox.js';
import { FakeXterm, settle } from './fake-xterm.js';
import { LineDiscipline } from './line-discipline.js';
import { ReadlineEditor } from './readline-editor.js';

// xterm-readline reads its history from `window.localStorage`; Node has no window.
beforeEach(() => {
	vi.stubGlobal('window', {});
});
afterEach(() => {
	vi.unstubAllGlobals();
});

function setUp(options: { pendingInput?: string[] } = {}) {
	const terminal = new FakeXterm();
	const readline = new Readline();
	const interrupts: number[] = [];
	const editor = new ReadlineEditor(terminal, readline, {
		onInterrupt: () => interrupts.push(Date.now()),
		pendingInput: options.pendingInput
	});
	terminal.loadAddon(readline);
	return { terminal, readline, editor, interrupts };
}

/** Resolves with the line, or 'pending' when none was submitted after the writes settled. */
async function outcome(line: Promise<string>): Promise<string> {
	const pending = Symbol('pending');
	const winner = await Promise.race([line, settle().then(() => pending)]);
	return winner === pending ? 'pending' : (winner as string);
}

describe('ReadlineEditor over xterm-readline', () => {
	it('resolves a read with the line typed key by key and Enter', async () => {
		const { terminal, editor } = setUp();
		const line = editor.read('workspace $ ');
		await settle();
		expect(terminal.written).toContain('workspace $ ');
		terminal.type('echo hello > note.txt\n');
		expect(await line).toBe('echo hello > note.txt');
	});

	it('clears the line on Ctrl+C at the prompt without interrupting anything', async () => {
		const { terminal, editor, interrupts } = setUp();
		const line = editor.read('$ ');
		await settle();
		terminal.type('rm -rf src');
		terminal.input('\x03');
		terminal.type('ls\n');
		expect(await line).toBe('ls');
		expect(interrupts).toHaveLength(0);
		expect(terminal.written).toContain('^C');
	});

	it('keeps keys typed between reads and replays them at the next prompt', async () => {
		const { terminal, editor } = setUp();
		const first = editor.read('$ ');
		await settle();
		terminal.type('echo hello > note.txt\n');
		expect(await first).toBe('echo hello > note.txt');
		// Typed while the command runs: xterm-readline alone would drop these.
		terminal.type('ls\n');
		terminal.type('pw');
		const second = editor.read('$ ');
		expect(await outcome(second)).toBe('ls');
		const third = editor.read('$ ');
		await settle();
		terminal.type('d\n');
		expect(await third).toBe('pwd');
	});

	it('replays keys typed before the editor existed and before the first prompt', async () => {
		const { terminal, editor } = setUp({ pendingInput: ['e', 'c'] });
		terminal.type('ho hi\n');
		expect(await outcome(editor.read('$ '))).toBe('echo hi');
	});

	it('treats Ctrl+C between reads as an interrupt and discards the type-ahead', async () => {
		const { terminal, editor, interrupts } = setUp();
		const first = editor.read('$ ');
		await settle();
		terminal.type('while true; do :; done\n');
		await first;
		terminal.type('rm note.txt\n');
		terminal.input('\x03');
		expect(interrupts).toHaveLength(1);
		expect(await outcome(editor.read('$ '))).toBe('pending');
	});

	it('leaves Ctrl+L between reads to readline (clears the screen) and does not queue it', async () => {
		const { terminal, editor } = setUp();
		terminal.input('\x0c');
		expect(terminal.written).toContain('\x1b[2J');
		const line = editor.read('$ ');
		await settle();
		terminal.type('ls\n');
		expect(await line).toBe('ls');
	});

	it('keeps a multi-key chunk typed ahead as one paste', async () => {
		const { terminal, editor } = setUp();
		terminal.input('echo a');
		terminal.input('\r');
		expect(await outcome(editor.read('$ '))).toBe('echo a');
	});

	it('bounds the type-ahead', async () => {
		const { terminal, editor } = setUp();
		terminal.input('x'.repeat(16_384));
		// Over the limit: dropped, like the keys a full type-ahead buffer cannot take.
		terminal.input('y');
		terminal.input('\r');
		const line = editor.read('$ ');
		expect(await outcome(line)).toBe('pending');
		terminal.input('\r');
		expect(await line).toBe('x'.repeat(16_384));
	});

	it('stops listening, rejects reads and ignores writes once disposed', async () => {
		const { terminal, editor } = setUp();
		const listeners = terminal.dataListenerCount;
		editor.dispose();
		expect(terminal.dataListenerCount).toBe(listeners - 1);
		await expect(editor.read('$ ')).rejects.toThrow(/closed/);
		const before = terminal.written;
		editor.write('late');
		expect(terminal.written).toBe(before);
	});
});

describe('LineDiscipline with xterm-readline, typed like a person', () => {
	it('runs lines typed right after Enter in order, and Ctrl+C stops a runaway loop', async () => {
		const terminal = new FakeXterm();
		const readline = new Readline();
		const runs: { line: string; signal: AbortSignal | undefined }[] = [];
		let finishLoop: ((result: LineShellResult) => void) | null = null;
		const session: LineShellSession = {
			mode: 'line',
			cwd: '',
			run(line, options) {
				runs.push({ line, signal: options?.signal });
				if (line.startsWith('while')) {
					options?.signal?.addEventListener('abort', () =>
						finishLoop?.({ exitCode: 124, interrupted: true, changes: [] })
					);
					return new Promise((resolve) => (finishLoop = resolve));
				}
				options?.onOutput?.(line === 'ls' ? 'note.txt\n' : '');
				return new Promise((resolve) =>
					setTimeout(() => resolve({ exitCode: 0, interrupted: false, changes: [] }), 5)
				);
			},
			dispose() {}
		};
		let discipline: LineDiscipline | null = null;
		const editor = new ReadlineEditor(terminal, readline, {
			onInterrupt: () => discipline?.interrupt()
		});
		terminal.loadAddon(readline);
		discipline = new LineDiscipline({ session, editor });
		void discipline.start();
		await settle();

		terminal.type('echo hello > note.txt\n');
		terminal.type('ls\n');
		terminal.type('while true; do :; done\n');
		await vi.waitFor(() => expect(runs).toHaveLength(3));
		expect(runs.map((run) => run.line)).toEqual([
			'echo hello > note.txt',
			'ls',
			'while true; do :; done'
		]);
		expect(terminal.written).toContain('note.txt\r\n');

		terminal.input('\x03');
		expect(runs[2]?.signal?.aborted).toBe(true);
		await settle();
		expect(discipline.isRunning).toBe(false);
		expect(terminal.written).toMatch(/\^C\r\n[^\n]*workspace[^\n]* \$ [^\n]*$/);
	});
});
