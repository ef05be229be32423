import { afterEach, describe, expect, it, vi } from 'vitest';
import { EchoSuppressor } from './echo-suppressor.js';

afterEach(() => {
	vi.useRealTimers();
});

describe('EchoSuppressor', () => {
	it('treats exact paths as echoes until the window after release has passed', () => {
		vi.useFakeTimers();
		const echoes = new EchoSuppressor(100);
		const release = echoes.expect({ exact: ['a/b.txt', 'a'] });
		expect(echoes.isEcho('a/b.txt')).toBe(true);
		expect(echoes.isEcho('a')).toBe(true);
		expect(echoes.isEcho('a/other.txt')).toBe(false);
		release();
		release();
		vi.advanceTimersByTime(99);
		expect(echoes.isEcho('a/b.txt')).toBe(true);
		vi.advanceTimersByTime(1);
		expect(echoes.isEcho('a/b.txt')).toBe(false);
		expect(echoes.isEcho('a')).toBe(false);
	});

	it('covers everything below a subtree path', () => {
		const echoes = new EchoSuppressor(0);
		echoes.expect({ subtree: ['build'] });
		expect(echoes.isEcho('build')).toBe(true);
		expect(echoes.isEcho('build/lib/x.js')).toBe(true);
		expect(echoes.isEcho('builds')).toBe(false);
		expect(echoes.isEcho('')).toBe(false);
	});

	it('counts overlapping operations on one path', () => {
		vi.useFakeTimers();
		const echoes = new EchoSuppressor(10);
		const first = echoes.expect({ exact: ['f'] });
		const second = echoes.expect({ exact: ['f'] });
		first();
		vi.advanceTimersByTime(10);
		expect(echoes.isEcho('f')).toBe(true);
		second();
		vi.advanceTimersByTime(10);
		expect(echoes.isEcho('f')).toBe(false);
	});

	it('forgets everything on clear and refuses a negative window', () => {
		const echoes = new EchoSuppressor(1_000);
		echoes.expect({ exact: ['x'], subtree: ['y'] })();
		echoes.clear();
		expect(echoes.isEcho('x')).toBe(false);
		expect(echoes.isEcho('y/z')).toBe(false);
		expect(() => new EchoSuppressor(-1)).toThrow(RangeError);
	});
});
