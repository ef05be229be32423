import type { ClassLedgerBirth } from '../../../hooks/ledger/ledger-event.js';
/** The header the Server provider's requests carry the learner token in (class mode). */
export const learnerTokenHeader = 'x-threadline-learner';

/** What this browser keeps after joining a class: the learner token, never the instructor's. */
export interface ClassMembership {
	token: string;
	/** The class id the server published. */
	classId: string;
	/** The learner's display name. */
	name: string;
	joinedAt: string;
}

export const membershipStorageKey = 'threadline-class-membership';

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function loadMembership(storage: KeyValueStorage): ClassMembership | null {
	const text = storage.getItem(membershipStorageKey);
	if (!text) return null;
	try {
		const value = JSON.parse(text) as Partial<ClassMembership>;
		if (
			typeof value.token === 'string' &&
			typeof value.classId === 'string' &&
			typeof value.name === 'string'
		) {
			return {
				token: value.token,
				classId: value.classId,
				name: value.name,
				joinedAt: String(value.joinedAt ?? '')
			};
		}
	} catch {
		// A damaged entry is as good as none: the learner joins again.
	}
	return null;
}

export function saveMembership(storage: KeyValueStorage, membership: ClassMembership): void {
	storage.setItem(membershipStorageKey, JSON.stringify(membership));
}

export function forgetMembership(storage: KeyValueStorage): void {
	storage.removeItem(membershipStorageKey);
}

/** What one append may carry, as the server advertises it (absent from older servers). */
export interface ClassRequestLimits {
	maxBodyBytes?: number;
	maxEventsPerRequest?: number;
}

/** The class this server hosts, or null when class mode is off (or the server is unreachable). */
export async function fetchClassInfo(
	fetcher: typeof fetch,
	base = ''
): Promise<{ classId: string; key: string; limits: ClassRequestLimits } | null> {
	try {
		const response = await fetcher(`${base}/api/class/key`);
		if (!response.ok) return null;
		const body = (await response.json()) as {
			class?: unknown;
			key?: unknown;
			limits?: { max_body_bytes?: unknown; max_events_per_request?: unknown } | null;
		};
		const positive = (value: unknown) =>
			typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
		return typeof body.class === 'string' && typeof body.key === 'string'
			? {
					classId: body.class,
					key: body.key,
					limits: {
						maxBodyBytes: positive(body.limits?.max_body_bytes),
						maxEventsPerRequest: positive(body.limits?.max_events_per_request)
					}
				}
			: null;
	} catch {
		return null;
	}
}

/** Joins with the class code and a display name; a plain sentence when refused. */
export async function joinClass(
	fetcher: typeof fetch,
	code: string,
	name: string,
	now: () => Date = () => new Date(),
	base = ''
): Promise<{ ok: true; membership: ClassMembership } | { ok: false; message: string }> {
	let response: Response;
	try {
		response = await fetcher(`${base}/api/class/join`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ code: code.trim(), name: name.trim() })
		});
	} catch {
		return { ok: false, message: 'The class server could not be reached; try again.' };
	}
	const body = (await response.json().catch(() => ({}))) as {
		token?: string;
		class?: string;
		learner?: { name?: string };
		error?: string;
	};
	if (!response.ok || typeof body.token !== 'string') {
		return { ok: false, message: body.error ?? `The class server refused (${response.status}).` };
	}
	return {
		ok: true,
		membership: {
			token: body.token,
			classId: body.class ?? '',
			name: body.learner?.name ?? name.trim(),
			joinedAt: now().toISOString()
		}
	};
}

/**
 * Asks the class server to issue a new ledger (its birth certificate, signed), for a history
 * about to start; null when it cannot (not a member, offline, a quota, or slower than
 * `timeoutMs`): the ledger is then born unbound and bound at its first append.
 */
export async function issueLedger(
	fetcher: typeof fetch,
	token: string,
	scenario: string | undefined,
	timeoutMs = 3000,
	base = ''
): Promise<ClassLedgerBirth | null> {
	try {
		const response = await fetcher(`${base}/api/class/ledgers`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
			body: JSON.stringify(scenario ? { scenario } : {}),
			signal: AbortSignal.timeout(timeoutMs)
		});
		if (response.status !== 201) return null;
		const body = (await response.json()) as Partial<ClassLedgerBirth> | null;
		const certificate = body?.certificate;
		return certificate?.kind === 'threadline-ledger-birth' &&
			typeof certificate.ledger === 'string' &&
			typeof body?.signature === 'string'
			? { certificate, signature: body.signature }
			: null;
	} catch {
		return null;
	}
}
