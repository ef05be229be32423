import type { ClassLedgerBirth } from '../../../hooks/ledger/ledger-event.js';
import {
	fetchClassInfo,
	forgetMembership,
	issueLedger,
	joinClass,
	loadMembership,
	saveMembership,
	type ClassMembership,
	type ClassRequestLimits
} from './class-membership.js';
import { LedgerWitness, type WitnessLedgerPort, type WitnessStatus } from './ledger-witness.js';

/**
 * The IDE's class state: whether this server hosts a class, this browser's membership, and the
 * witness of the open scenario's ledger. One per page.
 */
export class ClassWitnessState {
	/** The class this server hosts; null when class mode is off. */
	classId = $state<string | null>(null);
	membership = $state<ClassMembership | null>(null);
	status = $state<WitnessStatus>({ kind: 'idle' });
	#ledger: WitnessLedgerPort | null = null;
	#scenario: string | undefined;
	#witness: LedgerWitness | null = null;
	/** What one append may carry on this server (GET /api/class/key). */
	#limits: ClassRequestLimits = {};

	#started: Promise<void> | null = null;

	/** Asks the server whether it hosts a class and reads this browser's membership (once). */
	start(): Promise<void> {
		this.#started ??= (async () => {
			const info = await fetchClassInfo((input, init) => fetch(input, init));
			this.classId = info?.classId ?? null;
			this.#limits = info?.limits ?? {};
			this.membership = info ? loadMembership(localStorage) : null;
			this.#restart();
		})();
		return this.#started;
	}

	/**
	 * A new ledger's birth certificate from the class server, for a history about to start in
	 * this browser (null outside a class, or when the server does not answer in time).
	 */
	async issueLedger(scenario: string | undefined): Promise<ClassLedgerBirth | null> {
		await this.start();
		if (!this.classId || !this.membership) return null;
		return issueLedger((input, init) => fetch(input, init), this.membership.token, scenario);
	}

	/** Witnesses this ledger from now on (the IDE calls this when a scenario's ledger opens). */
	attach(ledger: WitnessLedgerPort, scenario?: string): void {
		this.#ledger = ledger;
		this.#scenario = scenario;
		this.#restart();
	}

	detach(): void {
		this.#ledger = null;
		this.#restart();
	}

	async join(code: string, name: string): Promise<string | null> {
		const joined = await joinClass((input, init) => fetch(input, init), code, name);
		if (!joined.ok) return joined.message;
		saveMembership(localStorage, joined.membership);
		this.membership = joined.membership;
		this.#restart();
		return null;
	}

	leave(): void {
		forgetMembership(localStorage);
		this.membership = null;
		this.#restart();
	}

	#restart(): void {
		this.#witness?.dispose();
		this.#witness = null;
		this.status = { kind: 'idle' };
		if (!this.#ledger || !this.membership || !this.classId) return;
		this.#witness = new LedgerWitness({
			ledger: this.#ledger,
			token: this.membership.token,
			fetch: (input, init) => fetch(input, init),
			schedule: (work, delayMs) => {
				const timer = setTimeout(work, delayMs);
				return () => clearTimeout(timer);
			},
			onStatus: (status) => {
				this.status = status;
			},
			newId: () => crypto.randomUUID(),
			limits: this.#limits,
			scenario: this.#scenario
		});
		void this.#witness.sync();
	}
}

export const classWitness = new ClassWitnessState();

/** The top bar's words: "Class: cs101 — witnessed" or "… — not witnessed since 14:02:11". */
export function witnessLabel(classId: string, status: WitnessStatus): string {
	switch (status.kind) {
		case 'witnessed':
			return `Class: ${classId} — witnessed`;
		case 'behind':
			return status.reason === 'full'
				? `Class: ${classId} — storage full, not witnessed since ${clockTime(status.since)}`
				: `Class: ${classId} — not witnessed since ${clockTime(status.since)}`;
		case 'sending':
			return `Class: ${classId} — sending…`;
		case 'forked':
			return `Class: ${classId} — the server contradicted its log`;
		default:
			return `Class: ${classId}`;
	}
}

function clockTime(iso: string): string {
	const date = new Date(iso);
	return Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString('en-GB');
}

/**
 * How a ledger's exercise is named to the class server at its first append: a built-in by its
 * id, anything else by its id and where it came from (two remote scenarios may declare one id).
 */
export function classScenarioName(id: string, source: string): string {
	if (source === `built-in:${id}`) return id;
	const name = `${id} (${source})`;
	return name.length <= 300 ? name : `${name.slice(0, 299)}…`;
}
