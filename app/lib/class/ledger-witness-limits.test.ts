import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerChain } from '../../../hooks/ledger/ledger-chain.js';
import type { LedgerEvent, LedgerEventDraft } from '../../../hooks/ledger/ledger-event.js';
import { defaultClassLimits, type ClassLimits } from '../../../server/class-config.js';
import { startClassNodeServer } from '../../../server/class-node-server.js';
import { ClassService } from '../../../server/class-service.js';
import { openEmbeddedDatabase } from '../../../server/storage/embedded-database.js';
import type { SqlDatabase } from '../../../server/storage/sql-database.js';
import { classCode, testConfig } from '../../../server/testing/class-api-suite.js';
import { fixtureClock } from '../../../server/testing/ledger-fixture.js';
import type { LedgerChange } from '../ledger/indexeddb-ledger.js';
import { fetchClassInfo, joinClass } from './class-membership.js';
import {
	LedgerWitness,
	type LedgerWitnessOptions,
	type WitnessLedgerPort,
	type WitnessStatus
} from './ledger-witness.js';

// The witness against a class server's limits: its quotas (the server's sentence, a long wait,
// no storm) and its body limit (batches that fit; an event that never can, said plainly).

class MemoryLedger implements WitnessLedgerPort {
	writable = true;
	events: LedgerEvent[] = [];
	values = new Map<string, unknown>();
	listeners = new Set<(change: LedgerChange) => void>();
	chain = new LedgerChain({ clock: fixtureClock() });
	whenHistoryLoaded() {
		return Promise.resolve();
	}
	eventsSince(seq: number) {
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

/** A lesson of `characters` characters of `text` (é is two UTF-8 bytes: JSON length undercounts). */
const lesson = (characters: number, text = 'é'): LedgerEventDraft => ({
	type: 'lesson-record',
	session_id: `session-${crypto.randomUUID()}`,
	intent_id: null,
	lesson: text.repeat(characters),
	category: 'note',
	source: 'agent'
});

const kib = 1024;
let database: SqlDatabase;
/** One key folder: every service on the database signs with the same key. */
let folder: string;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
	database = await openEmbeddedDatabase(null);
	folder = mkdtempSync(join(tmpdir(), 'threadline-witness-limits-'));
}, 120_000);

afterAll(async () => {
	for (const close of closers) await close();
	await database?.close();
	rmSync(folder, { recursive: true, force: true });
});

async function classServer(limits: Partial<ClassLimits>): Promise<string> {
	const service = await ClassService.open(
		{
			...testConfig(folder, null),
			limits: { ...defaultClassLimits, ...limits }
		},
		{ database }
	);
	const server = await startClassNodeServer(service);
	closers.push(() => server.close());
	return server.url;
}

async function witnessOf(url: string, options: Partial<LedgerWitnessOptions> = {}) {
	const joined = await joinClass(fetch, classCode, 'Learner', () => new Date(), url);
	if (!joined.ok) throw new Error(joined.message);
	const ledger = new MemoryLedger();
	const statuses: WitnessStatus[] = [];
	const retries: { work: () => void; delayMs: number }[] = [];
	const bodies: number[] = [];
	const witness = new LedgerWitness({
		ledger,
		token: joined.membership.token,
		base: url,
		fetch: async (input, init) => {
			bodies.push(new TextEncoder().encode(String(init?.body ?? '')).length);
			return fetch(input, init);
		},
		schedule: (work, delayMs) => {
			retries.push({ work, delayMs });
			return () => undefined;
		},
		onStatus: (status) => statuses.push(status),
		newId: () => `ledger-${crypto.randomUUID()}`,
		...options
	});
	return { ledger, witness, statuses, retries, bodies };
}

describe('LedgerWitness within the class server’s limits', () => {
	it('shows the server’s sentence for a storage quota and waits long, sending nothing meanwhile', async () => {
		const url = await classServer({ learnerMaxBytes: 16 * kib, classMaxBytes: 1024 * kib });
		const { ledger, witness, statuses, retries, bodies } = await witnessOf(url);
		await ledger.append([lesson(3000, 'x'), lesson(3000, 'x')]);
		await witness.sync();
		expect(statuses.at(-1)).toMatchObject({ kind: 'witnessed', seq: 2 });
		await ledger.append([lesson(6000, 'x'), lesson(6000, 'x')]);
		await witness.sync();
		const status = statuses.at(-1);
		expect(status).toMatchObject({ kind: 'behind', reason: 'full' });
		expect(status?.kind === 'behind' && status.message).toMatch(
			/^Your class storage is full .*THREADLINE_CLASS_LEARNER_MAX_BYTES\.$/
		);
		expect(retries).toHaveLength(1);
		expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(5 * 60_000);
		// Commits meanwhile send nothing (no storm of refused requests).
		const sent = bodies.length;
		for (let commit = 0; commit < 5; commit++) {
			await ledger.append([lesson(10, 'x')]);
			await witness.sync();
		}
		expect(bodies).toHaveLength(sent);
		// The long retry asks once.
		retries[0]?.work();
		await witness.sync();
		expect(bodies).toHaveLength(sent + 1);
		expect(statuses.at(-1)).toMatchObject({ kind: 'behind', reason: 'full' });
		witness.dispose();
	});

	it('sends batches that fit the advertised body limit, counting UTF-8 bytes', async () => {
		const url = await classServer({ maxBodyBytes: 48 * kib });
		const info = await fetchClassInfo(fetch, url);
		expect(info?.limits).toEqual({
			maxBodyBytes: 48 * kib,
			maxEventsPerRequest: defaultClassLimits.maxEventsPerBatch
		});
		const { ledger, witness, statuses, bodies } = await witnessOf(url, { limits: info?.limits });
		// 60 events of ~2 KB in UTF-8 but ~1 KB in JavaScript characters.
		await ledger.append(Array.from({ length: 60 }, () => lesson(1000)));
		await witness.sync();
		expect(statuses.at(-1)).toMatchObject({ kind: 'witnessed', seq: 60 });
		expect(bodies.length).toBeGreaterThan(1);
		expect(Math.max(...bodies)).toBeLessThanOrEqual(48 * kib);
		witness.dispose();
	});

	it('learns a lower limit from a 413 and sends smaller batches at once', async () => {
		const url = await classServer({ maxBodyBytes: 48 * kib });
		const { ledger, witness, statuses, bodies } = await witnessOf(url);
		await ledger.append(Array.from({ length: 60 }, () => lesson(1000)));
		await witness.sync();
		expect(statuses.at(-1)).toMatchObject({ kind: 'witnessed', seq: 60 });
		expect(Math.max(...bodies.slice(1))).toBeLessThanOrEqual(48 * kib);
		witness.dispose();
	});

	it('says plainly when one event is larger than the server takes, and does not retry it', async () => {
		const url = await classServer({ maxBodyBytes: 48 * kib });
		for (const limits of [{ maxBodyBytes: 48 * kib }, undefined]) {
			const { ledger, witness, statuses, retries, bodies } = await witnessOf(url, { limits });
			await ledger.append([lesson(40 * kib)]);
			await witness.sync();
			const status = statuses.at(-1);
			expect(status).toMatchObject({ kind: 'behind', reason: 'refused' });
			expect(status?.kind === 'behind' && status.message).toMatch(
				/^Ledger event 1 is 8\d KiB, more than the class server accepts in one request \(48 KiB\), so it and the events after it cannot be witnessed/
			);
			// Known up front: not even one request; learned from a 413: that one only.
			expect(bodies).toHaveLength(limits ? 0 : 1);
			for (let commit = 0; commit < 3; commit++) {
				await ledger.append([lesson(10, 'x')]);
				await witness.sync();
			}
			expect(bodies).toHaveLength(limits ? 0 : 1);
			expect(retries).toHaveLength(0);
			witness.dispose();
		}
	});
});
