import { describe, expect, it } from 'vitest';
import type { PtyShellSession } from '../../../sandbox/sandbox.js';
import { FakeXterm, settle } from './fake-xterm.js';
import { bindPtySession } from './pty-binding.js';

class FakePty implements PtyShellSession {
	readonly mode = 'pty';
	received: string[] = [];
	sizes: { cols: number; rows: number }[] = [];
	#listeners = new Set<(data: string) => void>();
	#end!: (code: number) => void;
	#crash!: (error: Error) => void;
	readonly exit = new Promise<number>((resolve, reject) => {
		this.#end = resolve;
		this.#crash = reject;
	});

	write(data: string): void {
		this.received.push(data);
	}

	onData(listener: (data: string) => void): () => void {
		this.#listeners.add(listener);
		return () => this.#listeners.delete(listener);
	}

	resize(size: { cols: number; rows: number }): void {
		this.sizes.push(size);
	}

	emit(data: string): void {
		for (const listener of this.#listeners) listener(data);
	}

	end(code: number): void {
		this.#end(code);
	}

	crash(): void {
		this.#crash(new Error('gone'));
	}

	get listenerCount(): number {
		return this.#listeners.size;
	}

	dispose(): void {}
}

describe('bindPtySession', () => {
	it('forwards keys as typed, control keys included', () => {
		const terminal = new FakeXterm();
		const session = new FakePty();
		bindPtySession(terminal, session);
		terminal.type('ls\n');
		terminal.input('\x03');
		terminal.input('\x1b[A');
		expect(session.received).toEqual(['l', 's', '\r', '\x03', '\x1b[A']);
	});

	it("writes the shell's bytes unchanged", () => {
		const terminal = new FakeXterm();
		const session = new FakePty();
		bindPtySession(terminal, session);
		session.emit('\x1b[32mok\x1b[0m\r\n$ ');
		session.emit('bare\nline');
		expect(terminal.written).toBe('\x1b[32mok\x1b[0m\r\n$ bare\nline');
	});

	it('sends the current size at once and every resize after', () => {
		const terminal = new FakeXterm();
		const session = new FakePty();
		bindPtySession(terminal, session);
		terminal.resize(120, 40);
		expect(session.sizes).toEqual([
			{ cols: 80, rows: 24 },
			{ cols: 120, rows: 40 }
		]);
	});

	it('passes keys typed before the session existed, after the size', () => {
		const terminal = new FakeXterm();
		const session = new FakePty();
		bindPtySession(terminal, session, ['e', 'c', 'h', 'o']);
		expect(session.received).toEqual(['e', 'c', 'h', 'o']);
	});

	it('says when the shell exits or fails', async () => {
		const terminal = new FakeXterm();
		const session = new FakePty();
		bindPtySession(terminal, session);
		session.end(3);
		await settle(1);
		expect(terminal.written).toContain('[The shell exited with code 3.]');

		const other = new FakeXterm();
		const crashing = new FakePty();
		bindPtySession(other, crashing);
		crashing.crash();
		await settle(1);
		expect(other.written).toContain('[The shell stopped unexpectedly.]');
	});

	it('stops forwarding both ways once disposed, and disposing twice is harmless', async () => {
		const terminal = new FakeXterm();
		const session = new FakePty();
		const listenersBefore = terminal.dataListenerCount;
		const binding = bindPtySession(terminal, session);
		binding.dispose();
		binding.dispose();
		expect(terminal.dataListenerCount).toBe(listenersBefore);
		expect(session.listenerCount).toBe(0);
		terminal.type('ls');
		terminal.resize(100, 30);
		session.emit('late');
		session.end(0);
		await settle(1);
		expect(session.received).toEqual([]);
		expect(session.sizes).toHaveLength(1);
		expect(terminal.written).toBe('');
	});
});
