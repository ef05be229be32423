export interface Session {
	id: string;
	userId: string;
	/** Milliseconds since the epoch, on the store's clock. */
	expiresAt: number;
}

const thirtyMinutes = 30 * 60 * 1000;

/** Server-side sessions: the state the JWT migration wants to get rid of. */
export class SessionStore {
	private readonly sessions = new Map<string, Session>();

	constructor(
		private readonly now: () => number = Date.now,
		private readonly lifetimeMs: number = thirtyMinutes
	) {}

	create(userId: string): Session {
		const session = { id: crypto.randomUUID(), userId, expiresAt: this.now() + this.lifetimeMs };
		this.sessions.set(session.id, session);
		return session;
	}

	/** The session, or null when it is unknown or has expired (expired ones are dropped). */
	get(id: string): Session | null {
		const session = this.sessions.get(id);
		if (!session) return null;
		if (session.expiresAt <= this.now()) {
			this.sessions.delete(id);
			return null;
		}
		return session;
	}

	revoke(id: string): boolean {
		return this.sessions.delete(id);
	}

	get size(): number {
		return this.sessions.size;
	}
}
