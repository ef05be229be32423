import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh bearer token: 32 random bytes, base64url, with a prefix saying what it is for. */
export function newToken(prefix: 'tl_learner' | 'tl_instructor' | 'tl_class'): string {
	return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** What the store keeps instead of a token: a leaked table cannot be replayed as tokens. */
export function tokenHash(token: string): string {
	return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Compares a secret the caller sent with the expected one in constant time: both are hashed
 * first, so the comparison sees equal lengths whatever was sent, then timingSafeEqual.
 */
export function secretsEqual(given: string, expected: string): boolean {
	const left = createHash('sha256').update(given, 'utf8').digest();
	const right = createHash('sha256').update(expected, 'utf8').digest();
	return timingSafeEqual(left, right);
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | null): string | null {
	if (!header) return null;
	const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
	return match?.[1] ?? null;
}
