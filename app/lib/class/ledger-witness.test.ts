import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerChain } from '../../../hooks/ledger/ledger-chain.js';
import type { LedgerEvent, LedgerEventDraft } from '../../../hooks/ledger/ledger-event.js';
import { startClassNodeServer } from '../../../server/class-node-server.js';
import { frontierAppend } from '../../../hooks/witness/merkle-log.js';
import { forkedMessage } from './class-log-witness.js';
import { ClassService } from '../../../server/class-service.js';
import { openEmbeddedDatabase } from '../../../server/storage/embedded-database.js';
import { classCode, instructorToken, testConfig } from '../../../server/testing/class-api-suite.js';
import { fixtureClock, fixtureDraft } from '../../../server/testing/ledger-fixture.js';
import { receiptSignatureValid } from '../../../server/witness/receipt.js';
import { publicKeyFromBase64 } from '../../../server/witness/signing-key.js';
import type { LedgerChange } from '../ledger/indexeddb-ledger.js';
import { issueLedger, joinClass } from './class-membership.js';
import { LedgerWitness, type WitnessLedgerPort, type WitnessStatus } from './ledger-witness.js';

/** Ledgers made so far: each starts its history at a time of its own (the server binds a ledger to its first event). */
let ledgersMade = 0;

/** The IndexedDB ledger's witness-facing surface, in memory. */
class MemoryWitnessLedger implements WitnessLedgerPort {
	writable = true;
	events: LedgerEvent[] = [];
	values = new Map<string, unknown>();
	listeners = new Set<(change: LedgerChange) => void>();
	chain = new LedgerChain({
		clock: fixtureClock(Date.UTC(2026, 10, 23, 12, 0, 0) + 3_600_000 * ledgersMade++)
	});
	historyLoaded: Promise<void> = Promise.resolve();
	/** As IndexedDbLedger while a large ledger's history is still being read. */
	historyLoading = false;
	whenHistoryLoaded() {
		return this.historyLoaded;
	}
	eventsSince(seq: number) {
		if (this.historyLoading && seq === 0) throw new Error('history still loading');
		return this.events.filter((event) => event.seq > seq);
	}
	async append(drafts: LedgerEventDraft[]) {
		const sealed = await this.chain.sealAll(drafts);
		this.events.push(...sealed);
		for (const listener of this.listeners)
			listener({ kind: 'appended', events: sealed, origin: 'this-tab' });
		return sealed;
	}
	state<Value>(key: string) {
		return this.values.get(key) as Value | undefined;
	}
	setState(key: string, value: unknown) {
		this.values.set(key, value);
	}
	subscribe(listener: (change: LedgerChange) => void) {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}
}

let service: ClassService;
let server: Awaited<ReturnType<typeof startClassNodeServer>>;

beforeAll(async () => {
	service = await ClassService.open(
		testConfig(mkdtempSync(join(tmpdir(), 'threadline-witness-client-')), null),
		{
			database: await openEmbeddedDatabase(null)
		}
	);
	server = await startClassNodeServer(service);
}, 120_000);

afterAll(async () => {
	await server?.close();
	await service?.close();
});

function setUp(token: string, ledger = new MemoryWitnessLedger()) {
	const statuses: WitnessStatus[] = [];
	const retries: (() => void)[] = [];
	let down = false;
	let requests = 0;
	const witness = new LedgerWitness({
		ledger,
		token,
		base: server.url,
		fetch: async (input, init) => {
			requests++;
			if (down) throw new TypeError('fetch failed');
			return fetch(input, init);
		},
		schedule: (work) => {
			retries.push(work);
			return () => undefined;
		},
		onStatus: (status) => statuses.push(status),
		newId: () => `ledger-${crypto.randomUUID()}`
	});
	return {
		ledger,
		witness,
		statuses,
		retries,
		setDown: (value: boolean) => (down = value),
		requests: () => requests
	};
}

async function learnerToken(name: string): Promise<string> {
	const joined = await joinClass(fetch, classCode, name, () => new Date(), server.url);
	if (!joined.ok) throw new Error(joined.message);
	return joined.membership.token;
}

const serverCopy = async (ledger: string) => {
	const response = await fetch(`${server.url}/api/class/ledgers/${ledger}/events`, {
		headers: { authorization: `Bearer ${instructorToken}` }
	});
	return (await response.json()) as { events: LedgerEvent[] };
};

describe('LedgerWitness: the browser’s witness client', () => {
	it('sends each commit’s events and stores the signed receipt as a ledger event', async () => {
		const { ledger, witness, statuses, requests } = setUp(await learnerToken('Ada'));
		await ledger.append([0, 1, 2].map((index) => fixtureDraft(index)));
		await witness.sync();
		const receipt = ledger.events.at(-1);
		expect(receipt?.type).toBe('witness-receipt');
		if (receipt?.type !== 'witness-receipt') return;
		expect(receipt.receipt).toMatchObject({
			ledger: witness.ledgerId,
			seq: 3,
			head_hash: ledger.events[2]?.hash
		});
		expect(
			receiptSignatureValid(
				receipt.receipt,
				receipt.signature,
				publicKeyFromBase64(service.publicKey)
			)
		).toBe(true);
		expect(statuses.at(-1)).toMatchObject({ kind: 'witnessed', seq: 3 });
		// The receipt alone is not sent (no receipt for a receipt, forever).
		const before = requests();
		await witness.sync();
		expect(requests()).toBe(before);
		// The next commit carries the receipt with it.
		await ledger.append([fixtureDraft(3)]);
		await witness.sync();
		const copy = await serverCopy(witness.ledgerId as string);
		expect(copy.events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5]);
		expect(copy.events[3]?.type).toBe('witness-receipt');
		// The second receipt carries the consistency proof the browser fetched and checked.
		const second = ledger.events.at(-1);
		if (second?.type !== 'witness-receipt') throw new Error('no second receipt');
		expect(second.log_consistency).toMatchObject({
			from: receipt.receipt.log?.size,
			to: second.receipt.log?.size
		});
		witness.dispose();
	});

	it('records a witness-fork and shows it when the server’s log contradicts what it showed before', async () => {
		const { ledger, witness, statuses } = setUp(await learnerToken('Forked'));
		await ledger.append([0, 1].map((index) => fixtureDraft(index)));
		await witness.sync();
		const database = service.store.database;
		// Whoever holds the database rewrites an old leaf and recomputes the log's state from the
		// leaves, as a careful rewrite would.
		const [state] = await database.query<{ frontier: string }>('SELECT frontier FROM log_state');
		const [row] = await database.query<{ leaf_hash: string }>(
			'SELECT leaf_hash FROM log_leaves WHERE index = 0'
		);
		const recompute = async () => {
			const leaves = await database.query<{ leaf_hash: string }>(
				'SELECT leaf_hash FROM log_leaves ORDER BY index'
			);
			let frontier: Uint8Array[] = [];
			leaves.forEach((leaf, size) => {
				frontier = frontierAppend(
					frontier,
					size,
					new Uint8Array(Buffer.from(leaf.leaf_hash, 'base64'))
				);
			});
			await database.query('UPDATE log_state SET frontier = $1', [
				JSON.stringify(frontier.map((hash) => Buffer.from(hash).toString('base64')))
			]);
		};
		await database.query(
			"UPDATE log_leaves SET leaf_hash = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' WHERE index = 0"
		);
		await recompute();
		try {
			await ledger.append([fixtureDraft(2)]);
			await witness.sync();
			// The receipt is kept, the fork recorded beside it (and itself sent to the server).
			const forkAt = ledger.events.findIndex((event) => event.type === 'witness-fork');
			expect(forkAt).toBeGreaterThan(0);
			expect(ledger.events[forkAt - 1]?.type).toBe('witness-receipt');
			const fork = ledger.events[forkAt];
			if (fork?.type !== 'witness-fork') throw new Error('no fork event');
			expect(fork.problem).toContain('does not extend');
			expect(statuses.at(-1)).toEqual({ kind: 'forked', message: forkedMessage });
		} finally {
			await database.query('UPDATE log_leaves SET leaf_hash = $1 WHERE index = 0', [
				row?.leaf_hash
			]);
			// The appends since then extended the rewritten tree: recompute from the restored leaves.
			if (state) await recompute();
		}
		witness.dispose();
	});

	it('waits for a large ledger’s history before it reads the last receipt or sends', async () => {
		const ledger = new MemoryWitnessLedger();
		await ledger.append([0, 1].map((index) => fixtureDraft(index)));
		let historyRead = () => {};
		ledger.historyLoading = true;
		ledger.historyLoaded = new Promise<void>((resolve) => {
			historyRead = () => {
				ledger.historyLoading = false;
				resolve();
			};
		});
		const { witness, requests } = setUp(await learnerToken('Lovelace'), ledger);
		const syncing = witness.sync();
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(requests()).toBe(0);
		historyRead();
		await syncing;
		expect(ledger.events.at(-1)).toMatchObject({ type: 'witness-receipt', receipt: { seq: 2 } });
		witness.dispose();
	});

	it('keeps working offline, says since when it is behind, and catches up with backoff', async () => {
		const { ledger, witness, statuses, retries, setDown } = setUp(await learnerToken('Grace'));
		await ledger.append([fixtureDraft(0)]);
		await witness.sync();
		const witnessedAt = (statuses.at(-1) as { at: string }).at;
		setDown(true);
		await ledger.append([fixtureDraft(1), fixtureDraft(2)]);
		await witness.sync();
		expect(statuses.at(-1)).toMatchObject({
			kind: 'behind',
			reason: 'offline',
			since: witnessedAt
		});
		expect(retries.length).toBeGreaterThan(0);
		await ledger.append([fixtureDraft(3)]);
		await witness.sync();
		setDown(false);
		retries.at(-1)?.();
		await witness.sync();
		expect(statuses.at(-1)).toMatchObject({ kind: 'witnessed', seq: 5 });
		const copy = await serverCopy(witness.ledgerId as string);
		expect(copy.events).toEqual(ledger.events.slice(0, 5));
		witness.dispose();
	});

	it('reports a refusal (a forked history) without retrying forever', async () => {
		const token = await learnerToken('Forker');
		const first = setUp(token);
		await first.ledger.append([fixtureDraft(0), fixtureDraft(1)]);
		await first.witness.sync();
		const ledgerId = first.witness.ledgerId as string;
		first.witness.dispose();
		// Another history claiming the same ledger id (e.g. a restored old copy): refused.
		const second = setUp(token);
		second.ledger.setState('class-witness:ledger-id', ledgerId);
		await second.ledger.append([fixtureDraft(5, 'other'), fixtureDraft(6, 'other')]);
		await second.witness.sync();
		expect(second.statuses.at(-1)).toMatchObject({ kind: 'behind', reason: 'refused' });
		expect(second.retries).toHaveLength(0);
		expect(second.ledger.events.some((event) => event.type === 'witness-receipt')).toBe(false);
		second.witness.dispose();
	});

	it('continues the ledger the server holds when this browser lost its id', async () => {
		const token = await learnerToken('Forgetful');
		const ledger = new MemoryWitnessLedger();
		const first = setUp(token, ledger);
		await ledger.append([fixtureDraft(0), fixtureDraft(1)]);
		await first.witness.sync();
		const ledgerId = first.witness.ledgerId as string;
		first.witness.dispose();
		// A reload at the worst moment: the stored id is gone, the history is not.
		ledger.values.clear();
		await ledger.append([fixtureDraft(2)]);
		const again = setUp(token, ledger);
		await again.witness.sync();
		expect(again.witness.ledgerId).toBe(ledgerId);
		expect(again.statuses.at(-1)).toMatchObject({ kind: 'witnessed' });
		const copy = await serverCopy(ledgerId);
		expect(copy.events.map((event) => event.seq)).toEqual(
			ledger.events.filter((event) => event.seq <= copy.events.length).map((event) => event.seq)
		);
		expect(copy.events.at(-1)?.seq).toBe(ledger.events.at(-2)?.seq);
		again.witness.dispose();
	});

	it('witnesses a history born in the class under the ledger the server issued for it', async () => {
		const token = await learnerToken('Born');
		const birth = await issueLedger(fetch, token, 'jwt-auth', 3000, server.url);
		expect(birth?.certificate).toMatchObject({ learner_name: 'Born', scenario: 'jwt-auth' });
		const { ledger, witness, statuses } = setUp(token);
		await ledger.append([
			{
				type: 'workspace-snapshot',
				session_id: 'workspace',
				files: {},
				class_ledger: birth ?? undefined
			},
			fixtureDraft(0)
		]);
		await witness.sync();
		expect(witness.ledgerId).toBe(birth?.certificate.ledger);
		expect(statuses.at(-1)).toMatchObject({ kind: 'witnessed', seq: 2 });
		witness.dispose();
		// Not a member (a stranger's token), or no server: no certificate, and no error.
		expect(await issueLedger(fetch, 'tl_learner_stranger', undefined, 3000, server.url)).toBeNull();
		expect(await issueLedger(fetch, token, undefined, 3000, 'http://127.0.0.1:9')).toBeNull();
	});

	it('says when the token is not accepted', async () => {
		const { ledger, witness, statuses } = setUp('tl_learner_not-a-member');
		await ledger.append([fixtureDraft(0)]);
		await witness.sync();
		expect(statuses.at(-1)).toMatchObject({ kind: 'behind', reason: 'unauthorized' });
		witness.dispose();
	});
});
