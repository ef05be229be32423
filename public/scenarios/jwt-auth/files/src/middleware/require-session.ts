import type { SessionStore } from '../auth/session-store.js';
import { findUserById, type User } from '../db/users.js';

/** The part of an HTTP request the middleware needs; any framework's request fits. */
export interface RequestLike {
	headers: Record<string, string | undefined>;
}

export type AuthResult = { ok: true; user: User } | { ok: false; status: 401; reason: string };

export function requireSession(request: RequestLike, store: SessionStore): AuthResult {
	const sessionId = readCookie(request.headers.cookie, 'session');
	if (!sessionId) return { ok: false, status: 401, reason: 'no session cookie' };
	const session = store.get(sessionId);
	if (!session) return { ok: false, status: 401, reason: 'session expired or unknown' };
	const user = findUserById(session.userId);
	if (!user) return { ok: false, status: 401, reason: 'user no longer exists' };
	return { ok: true, user };
}

export function readCookie(header: string | undefined, name: string): string | null {
	if (!header) return null;
	for (const part of header.split(';')) {
		const [key, ...value] = part.trim().split('=');
		if (key === name) return decodeURIComponent(value.join('='));
	}
	return null;
}
