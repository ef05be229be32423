import { findUserByName } from '../db/users.js';
import { verifyPassword } from './password.js';
import type { Session, SessionStore } from './session-store.js';

/** A session for the right name and password; null otherwise (never says which one was wrong). */
export async function login(
	name: string,
	password: string,
	store: SessionStore
): Promise<Session | null> {
	const user = findUserByName(name);
	if (!user) return null;
	if (!(await verifyPassword(password, user.salt, user.passwordHash))) return null;
	return store.create(user.id);
}
