import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerChain } from '../../hooks/ledger/ledger-chain.js';
import type { LedgerEvent } from '../../hooks/ledger/ledger-event.js';
import { defaultClassLimits, type ClassLimits } from '../class-config.js';
import { startClassNodeServer } from '../class-node-server.js';
import { ClassService } from '../class-service.js';
import { openEmbeddedDatabase } from '../storage/embedded-database.js';
import { openPostgresDatabase } from '../storage/postgres-database.js';
import type { SqlDatabase } from '../storage/sql-database.js';
import { learnerUsage, refusalRecordBytes } from '../storage/storage-quota.js';
import { classCode, instructorToken, testConfig } from './class-api-suite.js';
import { fixtureClock, fixtureEvents } from './ledger-fixture.js';

const kib = 1024;

/** Quotas small enough to reach in a test: 48 KiB and 4 ledgers a learner, 160 KiB a class. */
export const smallQuotas: Partial<ClassLimits> = {
	learnerMaxBytes: 48 * kib,
	learnerMaxLedgers: 4,
	classMaxBytes: 160 * kib
};

/**
 * `count` events of about `size` bytes each (lesson records), after `previous`; a fresh history
 * each time (a session of its own), since the server binds one history to one ledger.
 */
export async function largeEvents(
	count: number,
	size: number,
	previous: readonly LedgerEvent[] = [],
	text = 'x'
): Promise<LedgerEvent[]> {
	const chain = LedgerChain.fromEvents(fixtureClock(), previous);
	return chain.sealAll(
		Array.from({ length: count }, (_, index) => ({
			type: 'lesson-record' as const,
			session_id: previous[0]?.session_id ?? `session-${randomUUID()}`,
			intent_id: null,
			lesson: `${previous.length + index}: ${text.repeat(Math.ceil(size / text.length))}`,
			category: 'note',
			source: 'agent' as const
		}))
	);
}

/**
 * A database of its own for the quota tests (the class quota counts every learner in it): an
 * in-memory PGlite, or a fresh database in the test's PostgreSQL cluster.
 */
async function ownDatabase(databaseUrl: string | null): Promise<SqlDatabase> {
	if (databaseUrl === null) return openEmbeddedDatabase(null);
	const name = `limits_${process.pid}_${Date.now()}`;
	const admin = await openPostgresDatabase(databaseUrl, { maxConnections: 1 });
	await admin.query(`CREATE DATABASE ${name}`);
	await admin.close();
	const url = new URL(databaseUrl);
	url.pathname = `/${name}`;
	return openPostgresDatabase(url.toString());
}

/**
 * Storage quotas, join limits and the head endpoint, over real HTTP against the real service and
 * store, on the embedded database or PostgreSQL (the class-api test files call it).
 */
export function classLimitsSuite(databaseUrl: () => string | null): void {
	describe('storage quotas, joins and the head endpoint', () => {
		let folder: string;
		let database: SqlDatabase;
		const services: ClassService[] = [];
		const servers: Awaited<ReturnType<typeof startClassNodeServer>>[] = [];

		const open = async (limits: Partial<ClassLimits>) => {
			const service = await ClassService.open(
				{
					...testConfig(folder, databaseUrl()),
					limits: { ...defaultClassLimits, ...limits }
				},
				{ database }
			);
			const server = await startClassNodeServer(service);
			services.push(service);
			servers.push(server);
			return { service, url: server.url };
		};
		let url: string;

		beforeAll(async () => {
			folder = mkdtempSync(join(tmpdir(), 'threadline-class-limits-'));
			database = await ownDatabase(databaseUrl());
			url = (await open(smallQuotas)).url;
		}, 120_000);

		afterAll(async () => {
			for (const server of servers) await server.close();
			// The services share the database: close it once.
			await database?.close();
			rmSync(folder, { recursive: true, force: true });
		});

		const call = async (
			base: string,
			path: string,
			options: { token?: string; body?: unknown } = {}
		) => {
			const response = await fetch(`${base}${path}`, {
				method: options.body === undefined ? 'GET' : 'POST',
				headers: {
					'content-type': 'application/json',
					...(options.token ? { authorization: `Bearer ${options.token}` } : {})
				},
				body: options.body === undefined ? undefined : JSON.stringify(options.body)
			});
			return {
				status: response.status,
				headers: response.headers,
				// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers loosely
				body: (await response.json()) as Record<string, any>
			};
		};
		const joinAt = async (base: string, name: string) => {
			const joined = await call(base, '/api/class/join', { body: { code: classCode, name } });
			expect(joined.status).toBe(201);
			return { token: joined.body.token as string, id: joined.body.learner.id as string };
		};
		const append = (base: string, ledger: string, token: string, events: unknown[]) =>
			call(base, `/api/class/ledgers/${ledger}/events`, { token, body: { events } });

		/** What the store really holds for a learner, computed from the rows themselves. */
		const stored = async (learnerId: string) => {
			const [row] = await database.query<{ bytes: string; ledgers: string; forks: string }>(
				`SELECT
					coalesce((SELECT sum(octet_length(e.body)) FROM ledgers l
						JOIN ledger_events e ON e.ledger_id = l.id WHERE l.learner_id = $1), 0) AS bytes,
					(SELECT count(*) FROM ledgers WHERE learner_id = $1) AS ledgers,
					(SELECT count(*) FROM ledger_forks WHERE learner_id = $1) AS forks`,
				[learnerId]
			);
			return {
				eventBytes: Number(row?.bytes),
				ledgers: Number(row?.ledgers),
				forks: Number(row?.forks)
			};
		};

		it('refuses a learner’s flood of fresh ledgers at the byte quota (413, a sentence); other learners’ appends go on', async () => {
			const flooder = await joinAt(url, 'Flooder');
			const statuses: number[] = [];
			let refusal: Awaited<ReturnType<typeof call>> | null = null;
			for (let round = 0; round < 12 && !refusal; round++) {
				const answer = await append(
					url,
					`ledger-flood-${round}-0001`,
					flooder.token,
					await largeEvents(4, 3 * kib)
				);
				statuses.push(answer.status);
				if (answer.status !== 200) refusal = answer;
			}
			expect(refusal?.status).toBe(413);
			expect(refusal?.body.error).toBe('learner_storage_full');
			expect(refusal?.body.message).toMatch(
				/^Your class storage is full \(.* of 48 KiB.*THREADLINE_CLASS_LEARNER_MAX_BYTES\.$/
			);
			expect(Number(refusal?.headers.get('retry-after'))).toBeGreaterThanOrEqual(60);
			expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(2);
			const held = await stored(flooder.id);
			expect(held.eventBytes).toBeLessThanOrEqual(48 * kib);
			// Continuing a ledger it already has is refused as well.
			const head = await call(url, '/api/class/ledgers/ledger-flood-0-0001/head', {
				token: flooder.token
			});
			expect(head.status).toBe(200);
			const stored0 = (
				await call(url, '/api/class/ledgers/ledger-flood-0-0001/events', { token: instructorToken })
			).body.events as LedgerEvent[];
			const continued = await append(
				url,
				'ledger-flood-0-0001',
				flooder.token,
				await largeEvents(4, 3 * kib, stored0)
			);
			expect(continued.status).toBe(413);
			expect(continued.body.error).toBe('learner_storage_full');

			const other = await joinAt(url, 'Bystander');
			const events = await largeEvents(6, 2 * kib);
			expect((await append(url, 'ledger-bystander-1', other.token, events)).status).toBe(200);
			const more = await largeEvents(3, 2 * kib, events);
			const answer = await append(url, 'ledger-bystander-1', other.token, more);
			expect(answer.status).toBe(200);
			expect(answer.body.receipt.seq).toBe(9);
		});

		it('refuses a learner’s ledger past the ledger quota (429, a sentence); their ledgers go on', async () => {
			const learner = await joinAt(url, 'Resetter');
			const histories = new Map<number, LedgerEvent[]>();
			const history = async (index: number) => {
				const events = await fixtureEvents(2, [], { sessionId: `reset-${index}` });
				histories.set(index, events);
				return events;
			};
			for (let index = 1; index <= 4; index++) {
				const events = await history(index);
				expect(
					(await append(url, `ledger-reset-${index}-0001`, learner.token, events)).status
				).toBe(200);
			}
			const fifth = await append(url, 'ledger-reset-5-0001', learner.token, await history(5));
			expect(fifth.status).toBe(429);
			expect(fifth.body.error).toBe('learner_ledger_quota');
			expect(fifth.body.message).toMatch(/started 4 ledgers.*THREADLINE_CLASS_LEARNER_MAX_LEDGERS/);
			// Nothing of the refused ledger is stored.
			expect(
				(await call(url, '/api/class/ledgers/ledger-reset-5-0001/head', { token: learner.token }))
					.status
			).toBe(404);
			const more = await fixtureEvents(2, histories.get(1), { sessionId: 'reset-1' });
			expect((await append(url, 'ledger-reset-1-0001', learner.token, more)).status).toBe(200);
			expect(await stored(learner.id)).toMatchObject({ ledgers: 4 });
		});

		it('never lets concurrent appends of one learner (two instances, batched) pass the byte quota', async () => {
			// Two more instances on the same database, with room for ledgers: only bytes bind.
			const first = await open({ ...smallQuotas, learnerMaxLedgers: 1000 });
			const second = await open({ ...smallQuotas, learnerMaxLedgers: 1000 });
			const learner = await joinAt(first.url, 'Racer');
			const batches = await Promise.all(Array.from({ length: 24 }, () => largeEvents(2, 3 * kib)));
			const answers = await Promise.all(
				batches.map((events, index) =>
					append(
						index % 2 === 0 ? first.url : second.url,
						`ledger-race-${index}-0001`,
						learner.token,
						events
					)
				)
			);
			const statuses = answers.map((answer) => answer.status);
			expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(5);
			expect(statuses.filter((status) => status === 413).length).toBeGreaterThan(0);
			expect(statuses.every((status) => status === 200 || status === 413)).toBe(true);
			const held = await stored(learner.id);
			expect(held.eventBytes).toBeLessThanOrEqual(48 * kib);
			expect(await learnerUsage(database, learner.id)).toEqual({
				bytes: held.eventBytes,
				ledgers: held.ledgers
			});
		});

		it('counts a ledger once when two instances receive its first append at the same moment', async () => {
			const first = await open({ ...smallQuotas, learnerMaxLedgers: 1000 });
			const second = await open({ ...smallQuotas, learnerMaxLedgers: 1000 });
			const learner = await joinAt(first.url, 'Twice');
			const histories = await Promise.all(
				Array.from({ length: 10 }, (_, index) =>
					fixtureEvents(2, [], { sessionId: `twice-${index}` })
				)
			);
			const answers = await Promise.all(
				histories.flatMap((events, index) =>
					[first.url, second.url].map((base) =>
						append(base, `ledger-twice-${index}-0001`, learner.token, events)
					)
				)
			);
			expect(answers.every((answer) => answer.status === 200)).toBe(true);
			const held = await stored(learner.id);
			expect(held.ledgers).toBe(10);
			expect(await learnerUsage(database, learner.id)).toEqual({
				bytes: held.eventBytes,
				ledgers: 10
			});
		});

		it('charges exactly what is stored: a retry costs nothing, a refusal its record', async () => {
			const learner = await joinAt(url, 'Counter');
			const events = await fixtureEvents(5, [], { sessionId: 'counter' });
			expect((await append(url, 'ledger-count-0001', learner.token, events)).status).toBe(200);
			expect((await append(url, 'ledger-count-0001', learner.token, events)).status).toBe(200);
			const fork = await fixtureEvents(2, events.slice(0, 3), { sessionId: 'other', offset: 3 });
			expect((await append(url, 'ledger-count-0001', learner.token, fork)).status).toBe(409);
			const held = await stored(learner.id);
			expect(held.forks).toBe(1);
			expect(await learnerUsage(database, learner.id)).toEqual({
				bytes: held.eventBytes + refusalRecordBytes,
				ledgers: 1
			});
			// A learner without a usage row (stored by an older app version) gets one computed from
			// what the store holds, and is charged from there.
			await database.query('DELETE FROM learner_usage WHERE learner_id = $1', [learner.id]);
			const more = await fixtureEvents(2, events, { sessionId: 'counter' });
			expect((await append(url, 'ledger-count-0001', learner.token, more)).status).toBe(200);
			const after = await stored(learner.id);
			expect(await learnerUsage(database, learner.id)).toEqual({
				bytes: after.eventBytes + refusalRecordBytes,
				ledgers: 1
			});
		});

		it('answers the head of a ledger that does not exist and of another learner’s alike', async () => {
			const owner = await joinAt(url, 'Keeper');
			const prober = await joinAt(url, 'Prober');
			expect(
				(
					await append(
						url,
						'ledger-kept-00001',
						owner.token,
						await fixtureEvents(2, [], { sessionId: 'kept' })
					)
				).status
			).toBe(200);
			const foreign = await call(url, '/api/class/ledgers/ledger-kept-00001/head', {
				token: prober.token
			});
			const missing = await call(url, '/api/class/ledgers/ledger-none-00001/head', {
				token: prober.token
			});
			expect(foreign.status).toBe(404);
			expect(missing.status).toBe(foreign.status);
			expect(missing.body).toEqual(foreign.body);
			const own = await call(url, '/api/class/ledgers/ledger-kept-00001/head', {
				token: owner.token
			});
			expect(own.body).toMatchObject({ seq: 2 });
		});

		it('lets a whole classroom join from one address; limits failed joins per address, before the code is checked', async () => {
			// 40 joins from one address (127.0.0.1): more than the per-address burst (30).
			for (let index = 0; index < 40; index++) await joinAt(url, `Pupil ${index}`);
			const [service] = services as [ClassService];
			const wrong: number[] = [];
			for (let index = 0; index < 31; index++) {
				wrong.push((await service.join({ code: 'WRONG-CODE-00', name: 'Eve' }, '10.9.9.9')).status);
			}
			expect(wrong.slice(0, 30).every((status) => status === 403)).toBe(true);
			expect(wrong[30]).toBe(429);
			// Out of tries, the right code teaches nothing either.
			expect((await service.join({ code: classCode, name: 'Eve' }, '10.9.9.9')).status).toBe(429);
			expect((await service.join({ code: classCode, name: 'Ann' }, '10.1.1.1')).status).toBe(201);
		});

		it('limits successful joins per class', async () => {
			const { service } = await open({ joinRatePerSecond: 0.001, joinBurst: 3 });
			const statuses: number[] = [];
			for (const address of ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4']) {
				statuses.push((await service.join({ code: classCode, name: 'Joiner' }, address)).status);
			}
			expect(statuses).toEqual([201, 201, 201, 429]);
		});

		// Last: it fills the class.
		it('refuses every learner past the class’s byte quota (413, a sentence)', async () => {
			let refusal: Awaited<ReturnType<typeof call>> | null = null;
			for (let learner = 0; learner < 6 && !refusal; learner++) {
				const { token } = await joinAt(url, `Filler ${learner}`);
				for (let round = 0; round < 3 && !refusal; round++) {
					const answer = await append(
						url,
						`ledger-fill-${learner}-${round}-01`,
						token,
						await largeEvents(3, 4 * kib)
					);
					if (answer.status === 413 && answer.body.error === 'class_storage_full') refusal = answer;
				}
			}
			expect(refusal?.body.message).toMatch(
				/^The class server's storage for this class is full .*THREADLINE_CLASS_MAX_STORED_BYTES/
			);
			const [total] = await database.query<{ bytes: string }>(
				'SELECT sum(octet_length(body)) AS bytes FROM ledger_events'
			);
			expect(Number(total?.bytes)).toBeLessThanOrEqual(160 * kib);
		});
	});
}
