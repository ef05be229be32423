import { LedgerChain } from './ledger-chain.js';
import type { LedgerEvent, LedgerEventDraft } from './ledger-event.js';
import type { Clock, LedgerPort } from '../pipeline/ports.js';

/** A LedgerPort held in memory: the CLI's and the tests' ledger. */
export class MemoryLedger implements LedgerPort {
	readonly #stored: LedgerEvent[];
	readonly #chain: LedgerChain;

	/** `events`: previously sealed events (in order) to continue from. */
	constructor(options: { clock: Clock; events?: readonly LedgerEvent[] }) {
		this.#stored = [...(options.events ?? [])];
		this.#chain = LedgerChain.fromEvents(options.clock, this.#stored);
	}

	/** Seals and stores the drafts as one consecutive run; on error nothing is stored. */
	append(drafts: LedgerEventDraft[]): Promise<LedgerEvent[]> {
		// Storing inside the chain's critical section keeps concurrent appends in seal order.
		return this.#chain.sealAll(drafts, (sealed) => {
			for (const event of sealed) this.#stored.push(event);
		});
	}

	async events(): Promise<readonly LedgerEvent[]> {
		return [...this.#stored];
	}
}
