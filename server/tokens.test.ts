import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter.js';
import { bearerToken, newToken, secretsEqual, tokenHash } from './tokens.js';

describe('tokens', () => {
	it('are long, random, and stored as a hash', () => {
		const first = newToken('tl_learner');
		expect(first).toMatch(/^tl_learner_[A-Za-z0-9_-]{43}$/);
		expect(newToken('tl_learner')).not.toBe(first);
		expect(tokenHash(first)).toMatch(/^[0-9a-f]{64}$/);
		expect(tokenHash(first)).not.toContain(first.slice(11));
	});

	it('compare whatever their lengths', () => {
		expect(secretsEqual('same-secret', 'same-secret')).toBe(true);
		expect(secretsEqual('same-secreT', 'same-secret')).toBe(false);
		expect(secretsEqual('', 'same-secret')).toBe(false);
		expect(secretsEqual('x'.repeat(10_000), 'same-secret')).toBe(false);
	});

	it('are read from a Bearer header only', () => {
		expect(bearerToken('Bearer abc')).toBe('abc');
		expect(bearerToken('bearer   abc  ')).toBe('abc');
		expect(bearerToken('Basic abc')).toBeNull();
		expect(bearerToken('Bearer a b')).toBeNull();
		expect(bearerToken(null)).toBeNull();
	});
});

describe('RateLimiter', () => {
	it('allows a burst, then the sustained rate', () => {
		let now = 0;
		const limiter = new RateLimiter(2, 3, () => now);
		expect([1, 2, 3, 4].map(() => limiter.take('a'))).toEqual([true, true, true, false]);
		expect(limiter.take('b')).toBe(true);
		expect(limiter.retryAfterSeconds('a')).toBe(1);
		now = 500;
		expect(limiter.take('a')).toBe(true);
		expect(limiter.take('a')).toBe(false);
	});
});
