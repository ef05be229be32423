import { verify } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LedgerChain } from '../../hooks/ledger/ledger-chain.js';
import type { LedgerEvent } from '../../hooks/ledger/ledger-event.js';
import { defaultClassLimits, type ClassConfig } from '../class-config.js';
import { startClassNodeServer } from '../class-node-server.js';
import { ClassService } from '../class-service.js';
import { receiptSignatureValid } from '../witness/receipt.js';
import { publicKeyFromBase64, signingKeyFileName } from '../witness/signing-key.js';
import { fixtureEvents } from './ledger-fixture.js';
import { classLogLeafHash } from '../../hooks/witness/class-log-leaf.js';
import { verifyConsistency, verifyInclusion } from '../../hooks/witness/merkle-log.js';
import {
	noteSignedBy,
	parseCheckpointNote,
	type VerifySignature
} from '../../hooks/witness/signed-note.js';

export const instructorToken = 'tl_instructor_test-token-0123456789abcdef';
export const classCode = 'CODE-1234-ABCD';

export function testConfig(dataDirectory: string, databaseUrl: string | null): ClassConfig {
	return {
		classCode,
		instructorToken,
		classId: 'cs101',
		databaseUrl,
		dataDirectory,
		limits: { ...defaultClassLimits }
	};
}

/**
 * The class API's contract, run over real HTTP against the real service and store. The embedded
 * and the PostgreSQL test files call this with their own database.
 */
export function classApiSuite(databaseUrl: () => string | null): void {
	let folder: string;
	let service: ClassService;
	let server: Awaited<ReturnType<typeof startClassNodeServer>>;
	let url: string;

	beforeAll(async () => {
		folder = mkdtempSync(join(tmpdir(), 'threadline-class-'));
		service = await ClassService.open(testConfig(folder, databaseUrl()));
		server = await startClassNodeServer(service);
		url = server.url;
	}, 120_000);

	afterAll(async () => {
		await server?.close();
		await service?.close();
		rmSync(folder, { recursive: true, force: true });
	});

	const call = async (
		path: string,
		options: { method?: string; token?: string; body?: unknown; rawBody?: string } = {}
	) => {
		const response = await fetch(`${url}${path}`, {
			method:
				options.method ??
				(options.body === undefined && options.rawBody === undefined ? 'GET' : 'POST'),
			headers: {
				'content-type': 'application/json',
				...(options.token ? { authorization: `Bearer ${options.token}` } : {})
			},
			body:
				options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body))
		});
		return {
			status: response.status, // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers loosely
			body: (await response.json()) as Record<string, any>
		};
	};
	const join_ = async (name: string) => {
		const joined = await call('/api/class/join', { body: { code: classCode, name } });
		expect(joined.status).toBe(201);
		return joined.body.token as string;
	};
	const append = (ledger: string, token: string, events: unknown[]) =>
		call(`/api/class/ledgers/${ledger}/events`, { token, body: { events } });

	it('publishes the class id and the raw 32-byte Ed25519 public key; the key file is 0600', async () => {
		const { status, body } = await call('/api/class/key');
		expect(status).toBe(200);
		expect(body.class).toBe('cs101');
		expect(Buffer.from(body.key, 'base64')).toHaveLength(32);
		expect(statSync(join(folder, signingKeyFileName)).mode & 0o777).toBe(0o600);
	});

	it('joins with the class code and a display name only', async () => {
		expect(
			(await call('/api/class/join', { body: { code: 'WRONG-CODE', name: 'Ada' } })).status
		).toBe(403);
		expect((await call('/api/class/join', { body: { code: classCode, name: '  ' } })).status).toBe(
			400
		);
		expect(
			(await call('/api/class/join', { body: { code: classCode, name: 'a\u0000b' } })).status
		).toBe(400);
		expect(
			(await call('/api/class/join', { body: { code: classCode, name: 'x'.repeat(81) } })).status
		).toBe(400);
		expect((await call('/api/class/join', { rawBody: '{not json' })).status).toBe(400);
		expect((await call('/api/class/join', { method: 'GET' })).status).toBe(405);
		const joined = await call('/api/class/join', { body: { code: classCode, name: 'Ada' } });
		expect(joined.status).toBe(201);
		expect(joined.body.token).toMatch(/^tl_learner_/);
		expect(JSON.stringify(joined.body)).not.toContain(instructorToken);
	});

	it('stores tokens hashed, never the tokens themselves', async () => {
		const token = await join_('Hashed');
		const rows = await service.store.database.query<{ token_hash: string }>(
			'SELECT token_hash FROM learners'
		);
		expect(rows.length).toBeGreaterThan(0);
		for (const row of rows) expect(row.token_hash).not.toContain(token.slice(11));
	});

	it('witnesses a growing ledger with signed receipts that cover its head', async () => {
		const token = await join_('Grace');
		const key = publicKeyFromBase64(service.publicKey);
		const ledger = 'ledger-grace-0001';
		const first = await fixtureEvents(10);
		const answer = await append(ledger, token, first);
		expect(answer.status).toBe(200);
		expect(answer.body.receipt).toMatchObject({
			ledger,
			seq: 10,
			head_hash: first[9]?.hash,
			genesis_hash: first[0]?.hash,
			learner_name: 'Grace'
		});
		expect(Object.keys(answer.body.receipt).sort()).toEqual([
			'genesis_hash',
			'head_hash',
			'learner',
			'learner_name',
			'ledger',
			'log',
			'received_at',
			'seq'
		]);
		expect(receiptSignatureValid(answer.body.receipt, answer.body.signature, key)).toBe(true);
		expect(
			receiptSignatureValid({ ...answer.body.receipt, seq: 9 }, answer.body.signature, key)
		).toBe(false);

		const more = await fixtureEvents(5, first);
		const second = await append(ledger, token, more);
		expect(second.status).toBe(200);
		expect(second.body.receipt.seq).toBe(15);
		// A retried batch (the answer was lost) is stored once and receipted again.
		const retried = await append(ledger, token, more);
		expect(retried.status).toBe(200);
		expect(retried.body.receipt).toMatchObject({ seq: 15, head_hash: more[4]?.hash });
		const copy = await call(`/api/class/ledgers/${ledger}/events`, { token: instructorToken });
		expect(copy.status).toBe(200);
		expect(copy.body.events).toEqual([...first, ...more]);
		expect(copy.body.head_seq).toBe(15);
	});

	it('puts every stored event in one signed, append-only class log: receipts and proofs verify, a rewritten store does not', async () => {
		const token = await join_('Logger');
		const rawKey = new Uint8Array(Buffer.from(service.publicKey, 'base64'));
		const verifyPort: VerifySignature = (message, signature, key) =>
			verify(null, message, publicKeyFromBase64(Buffer.from(key).toString('base64')), signature);
		const origin = 'threadline/cs101';
		const signedCheckpoint = (text: string) => {
			const note = parseCheckpointNote(text);
			if (note instanceof Error) throw note;
			expect(note.checkpoint.origin).toBe(origin);
			expect(noteSignedBy(note, origin, rawKey, verifyPort)).toBe(true);
			return note.checkpoint;
		};
		const b64 = (hashes: string[]) =>
			hashes.map((hash) => new Uint8Array(Buffer.from(hash, 'base64')));
		const ledger = 'ledger-logger-001';
		const first = await fixtureEvents(6);
		const more = await fixtureEvents(4, first);
		const receipts = [
			(await append(ledger, token, first)).body.receipt,
			(await append(ledger, token, more)).body.receipt
		];
		for (const receipt of receipts) {
			const log = receipt.log;
			expect(log.size).toBe(log.index + 1);
			const checkpoint = signedCheckpoint(log.checkpoint);
			expect(checkpoint.size).toBe(log.size);
			expect(Buffer.from(checkpoint.root).toString('base64')).toBe(log.root);
			const leaf = classLogLeafHash(ledger, receipt.seq, receipt.head_hash);
			expect(verifyInclusion(leaf, log.index, log.size, b64(log.inclusion), checkpoint.root)).toBe(
				true
			);
			expect(
				verifyInclusion(leaf, log.index, log.size, b64(log.inclusion).reverse(), checkpoint.root)
			).toBe(log.inclusion.length < 2);
		}
		// Ten events, ten leaves: the second head is four leaves after the first.
		expect(receipts[1].log.index - receipts[0].log.index).toBe(4);

		const latest = await fetch(`${url}/api/class/log/checkpoint`);
		expect(latest.status).toBe(200);
		expect(latest.headers.get('content-type')).toMatch(/^text\/plain/);
		const now = signedCheckpoint(await latest.text());
		expect(now.size).toBeGreaterThanOrEqual(receipts[1].log.size);
		const old = signedCheckpoint(receipts[0].log.checkpoint);
		const inclusion = await call(
			`/api/class/log/proof/inclusion?index=${receipts[0].log.index}&size=${now.size}`
		);
		expect(inclusion.status).toBe(200);
		const firstLeaf = classLogLeafHash(ledger, receipts[0].seq, receipts[0].head_hash);
		expect(
			verifyInclusion(
				firstLeaf,
				receipts[0].log.index,
				now.size,
				b64(inclusion.body.hashes),
				now.root
			)
		).toBe(true);
		const consistency = await call(
			`/api/class/log/proof/consistency?from=${old.size}&to=${now.size}`
		);
		expect(consistency.status).toBe(200);
		expect(
			verifyConsistency(old.size, now.size, old.root, now.root, b64(consistency.body.hashes))
		).toBe(true);
		for (const bad of [
			`inclusion?index=${now.size}&size=${now.size}`,
			`inclusion?index=0&size=${now.size + 1}`,
			'inclusion?index=-1&size=1',
			'consistency?from=2&to=1',
			'consistency?from=1',
			'consistency?from=0x1&to=2'
		])
			expect((await call(`/api/class/log/proof/${bad}`)).status).toBe(400);

		// A server that rewrote a stored leaf (its database edited) cannot prove its log extends
		// the checkpoint it signed before.
		// (The leaf before the first receipt's head: the head's own proof holds a subtree over it.)
		const index = receipts[0].log.index - 1;
		const [row] = await service.store.database.query<{ leaf_hash: string }>(
			'SELECT leaf_hash FROM log_leaves WHERE index = $1',
			[index]
		);
		const forged = Buffer.from(
			classLogLeafHash(ledger, receipts[0].seq, more[0]?.hash as string)
		).toString('base64');
		await service.store.database.query('UPDATE log_leaves SET leaf_hash = $1 WHERE index = $2', [
			forged,
			index
		]);
		try {
			const rewritten = await call(
				`/api/class/log/proof/consistency?from=${old.size}&to=${now.size}`
			);
			expect(
				verifyConsistency(old.size, now.size, old.root, now.root, b64(rewritten.body.hashes))
			).toBe(false);
			const head = receipts[0].log.index;
			const moved = await call(`/api/class/log/proof/inclusion?index=${head}&size=${now.size}`);
			expect(verifyInclusion(firstLeaf, head, now.size, b64(moved.body.hashes), now.root)).toBe(
				false
			);
		} finally {
			await service.store.database.query('UPDATE log_leaves SET leaf_hash = $1 WHERE index = $2', [
				row?.leaf_hash,
				index
			]);
		}
	});

	it('refuses and records events that do not extend the stored head (fork, gap, rewrite)', async () => {
		const token = await join_('Forker');
		const ledger = 'ledger-forker-001';
		const base = await fixtureEvents(6);
		expect((await append(ledger, token, base)).status).toBe(200);
		// A different continuation of seq 1..4: a fork at seq 5.
		const fork = await fixtureEvents(3, base.slice(0, 4), { sessionId: 'other', offset: 4 });
		const forked = await append(ledger, token, fork);
		expect(forked.status).toBe(409);
		expect(forked.body.head).toEqual({ seq: 6, head_hash: base[5]?.hash });
		expect(forked.body.error).toContain('seq 5');
		// A continuation whose prev_hash is not the stored head (rewritten history, recomputed).
		const rewritten = await fixtureEvents(8, [], { sessionId: 'rewritten' });
		expect((await append(ledger, token, rewritten.slice(6))).status).toBe(409);
		// A gap.
		const later = await fixtureEvents(4, base);
		expect((await append(ledger, token, later.slice(2))).status).toBe(409);
		const listing = await call('/api/class/ledgers', { token: instructorToken });
		const summary = listing.body.ledgers.find(
			(entry: { ledger: string }) => entry.ledger === ledger
		);
		expect(summary).toMatchObject({ events: 6, forks: 3, learner: { name: 'Forker' } });
		const copy = await call(`/api/class/ledgers/${ledger}/events`, { token: instructorToken });
		expect(copy.body.refused).toHaveLength(3);
		expect(copy.body.events).toEqual(base);
		// The honest continuation still goes on.
		expect((await append(ledger, token, later)).status).toBe(200);
	});

	it('binds a ledger to its history and learner: laundering into a fresh ledger and another learner’s history are refused and shown to the instructor', async () => {
		const alice = await join_('Alice');
		const bob = await join_('Bob');
		const witnessed = await fixtureEvents(8);
		const answer = await call('/api/class/ledgers/ledger-alice-01/events', {
			token: alice,
			body: { events: witnessed, scenario: 'jwt-auth' }
		});
		expect(answer.status).toBe(200);
		expect(answer.body.receipt).toMatchObject({ scenario: 'jwt-auth', learner_name: 'Alice' });
		// Alice rewrites seq 5 on, re-chains, and sends it all under a fresh ledger id.
		const rewritten = [
			...witnessed.slice(0, 4),
			...(await fixtureEvents(6, witnessed.slice(0, 4), { sessionId: 'laundered' }))
		];
		const laundered = await append('ledger-alice-02', alice, rewritten);
		expect(laundered.status).toBe(409);
		expect(laundered.body).toMatchObject({ code: 'history_rewritten' });
		expect(laundered.body.error).toContain('seq 5');
		// Bob sends Alice's whole history (first event included) into his own fresh ledger.
		const copied = await append('ledger-bob-0001', bob, witnessed);
		expect(copied.status).toBe(409);
		expect(copied.body).toMatchObject({ code: 'history_copied' });
		expect(copied.body.error).not.toContain('ledger-alice-01');
		// Alice's browser lost its ledger id: it is told which ledger to continue.
		const again = await append('ledger-alice-03', alice, witnessed.slice(0, 3));
		expect(again.status).toBe(409);
		expect(again.body).toMatchObject({ code: 'history_held', ledger: 'ledger-alice-01' });
		// Nothing of the refused histories was stored; the instructor sees each attempt.
		const original = await call('/api/class/ledgers/ledger-alice-01/events', {
			token: instructorToken
		});
		expect(original.body.events).toEqual(witnessed);
		expect(
			original.body.copies.map((copy: Record<string, unknown>) => [
				copy.ledger,
				copy.kind,
				copy.from_seq,
				(copy.learner as { name: string }).name
			])
		).toEqual([
			['ledger-alice-02', 'rewrite', 5, 'Alice'],
			['ledger-bob-0001', 'copy', 8, 'Bob']
		]);
		const bobs = await call('/api/class/ledgers/ledger-bob-0001/events', {
			token: instructorToken
		});
		expect(bobs.body.events).toEqual([]);
		expect(bobs.body.copies[0]).toMatchObject({
			original_ledger: 'ledger-alice-01',
			original_learner: { name: 'Alice' }
		});
		// A history made again from scratch is a new ledger: the old one shows as abandoned.
		const remade = await fixtureEvents(4);
		const fresh = await call('/api/class/ledgers/ledger-alice-04/events', {
			token: alice,
			body: { events: remade, scenario: 'jwt-auth' }
		});
		expect(fresh.status).toBe(200);
		const listing = await call('/api/class/ledgers', { token: instructorToken });
		const mine = listing.body.ledgers.filter(
			(entry: { learner: { name: string } }) => entry.learner.name === 'Alice'
		);
		expect(
			mine.map((entry: Record<string, unknown>) => [
				entry.ledger,
				entry.scenario,
				entry.abandoned,
				entry.copies
			])
		).toEqual([
			['ledger-alice-01', 'jwt-auth', true, 0],
			['ledger-alice-02', null, false, 1],
			['ledger-alice-03', null, false, 0],
			['ledger-alice-04', 'jwt-auth', false, 0]
		]);
	});

	it('issues a ledger with a birth certificate that its first event must carry, and never in another ledger', async () => {
		const dana = await join_('Dana');
		const issued = await call('/api/class/ledgers', {
			token: dana,
			body: { scenario: 'jwt-auth' }
		});
		expect(issued.status).toBe(201);
		const { certificate, signature } = issued.body;
		expect(certificate).toMatchObject({
			kind: 'threadline-ledger-birth',
			class: 'cs101',
			learner_name: 'Dana',
			scenario: 'jwt-auth'
		});
		const key = publicKeyFromBase64(service.publicKey);
		expect(receiptSignatureValid(certificate, signature, key)).toBe(true);
		const born = async (birth: unknown) => {
			const [snapshot] = await fixtureEvents(1);
			const {
				seq: _seq,
				prev_hash: _previous,
				hash: _hash,
				timestamp,
				...body
			} = snapshot as LedgerEvent;
			const clock = { nowIso: () => timestamp, nowMs: () => Date.parse(timestamp) };
			const chain = LedgerChain.fromEvents(clock, []);
			const [first] = await chain.sealAll([
				{ ...body, type: 'workspace-snapshot', files: {}, class_ledger: birth } as never
			]);
			return [first as LedgerEvent, ...(await fixtureEvents(3, [first as LedgerEvent]))];
		};
		const history = await born({ certificate, signature });
		// Moved into another (fresh) ledger: refused, it was born as the issued one.
		const moved = await append('ledger-dana-other', dana, history);
		expect(moved.status).toBe(409);
		expect(moved.body.error).toContain(`born as ledger ${certificate.ledger}`);
		// A certificate the server did not sign (edited to an earlier time): refused.
		const forged = await born({
			certificate: { ...certificate, issued_at: '2026-01-01T00:00:00.000Z' },
			signature
		});
		expect((await append(certificate.ledger, dana, forged)).status).toBe(422);
		// The issued ledger refuses a first event without its certificate.
		const unbound = await fixtureEvents(3);
		expect((await append(certificate.ledger, dana, unbound)).status).toBe(409);
		// Its own history goes in, and the receipt names it.
		const stored = await append(certificate.ledger, dana, history);
		expect(stored.status).toBe(200);
		expect(stored.body.receipt).toMatchObject({
			ledger: certificate.ledger,
			learner: certificate.learner,
			genesis_hash: history[0]?.hash
		});
		// Another learner cannot use it.
		const eve = await join_('Eve');
		expect((await append(certificate.ledger, eve, history)).status).toBe(403);
		// Without a learner token nothing is issued.
		expect((await call('/api/class/ledgers', { body: {} })).status).toBe(401);
	});

	it('rejects events whose hash or links are wrong, naming the event', async () => {
		const token = await join_('Sloppy');
		const events = await fixtureEvents(4);
		const edited = events.map((event, index) =>
			index === 2 ? { ...event, session_id: 'edited-without-rehash' } : event
		);
		const answer = await append('ledger-sloppy-01', token, edited);
		expect(answer.status).toBe(422);
		expect(answer.body.error).toContain('seq 3');
		expect(answer.body.error).toContain('hash does not match');
		const unlinked = [events[0], events[2]];
		expect((await append('ledger-sloppy-01', token, unlinked)).status).toBe(422);
		expect((await append('ledger-sloppy-01', token, [])).status).toBe(400);
		expect(
			(await call('/api/class/ledgers/ledger-sloppy-01/events', { token, rawBody: '[1,2' })).status
		).toBe(400);
		expect((await append('bad id!', token, events)).status).toBe(400);
		expect((await append('short', token, events)).status).toBe(400);
	});

	it('answers 401 without a token and 403 for a foreign one; learners never read ledgers', async () => {
		const owner = await join_('Owner');
		const intruder = await join_('Intruder');
		const ledger = 'ledger-owner-0001';
		const events = await fixtureEvents(3);
		expect((await append(ledger, owner, events)).status).toBe(200);
		expect((await append(ledger, '', events)).status).toBe(401);
		expect((await append(ledger, 'tl_learner_forged', events)).status).toBe(403);
		expect((await append(ledger, instructorToken, events)).status).toBe(403);
		expect((await append(ledger, intruder, events)).status).toBe(403);
		expect((await append(ledger, intruder, await fixtureEvents(2, events))).status).toBe(403);
		expect((await call('/api/class/ledgers')).status).toBe(401);
		expect((await call('/api/class/ledgers', { token: owner })).status).toBe(403);
		expect((await call(`/api/class/ledgers/${ledger}/events`, { token: owner })).status).toBe(403);
		expect((await call(`/api/class/ledgers/${ledger}/events`, { token: intruder })).status).toBe(
			403
		);
		expect((await call(`/api/class/ledgers/${ledger}/head`, { token: owner })).body).toMatchObject({
			seq: 3
		});
		// Not yours is answered as not there (class-limits-suite.ts compares the two).
		expect((await call(`/api/class/ledgers/${ledger}/head`, { token: intruder })).status).toBe(404);
	});

	it('caps the body size', async () => {
		const token = await join_('Big');
		const huge = 'x'.repeat(defaultClassLimits.maxBodyBytes + 10);
		const answer = await call('/api/class/ledgers/ledger-big-00001/events', {
			token,
			rawBody: JSON.stringify({ events: [{ huge }] })
		});
		expect(answer.status).toBe(413);
	});

	it('serialises concurrent appends to one ledger: no lost or duplicated event', async () => {
		const token = await join_('Racer');
		const ledger = 'ledger-racer-0001';
		const base = await fixtureEvents(2);
		expect((await append(ledger, token, base)).status).toBe(200);
		const next = await fixtureEvents(3, base);
		const rival = await fixtureEvents(3, base, { sessionId: 'rival' });
		const answers = await Promise.all([
			...Array.from({ length: 8 }, () => append(ledger, token, next)),
			...Array.from({ length: 8 }, () => append(ledger, token, rival))
		]);
		const winners = answers.filter((answer) => answer.status === 200);
		const losers = answers.filter((answer) => answer.status === 409);
		expect(winners.length + losers.length).toBe(16);
		expect(winners.length).toBe(8);
		const winningHash = winners[0]?.body.receipt.head_hash;
		expect(winners.every((answer) => answer.body.receipt.head_hash === winningHash)).toBe(true);
		const copy = await call(`/api/class/ledgers/${ledger}/events`, { token: instructorToken });
		expect(copy.body.events.map((event: LedgerEvent) => event.seq)).toEqual([1, 2, 3, 4, 5]);
		expect(copy.body.events.at(-1).hash).toBe(winningHash);
	});

	it('limits a learner’s request rate (429 with Retry-After)', async () => {
		const limited = await ClassService.open(
			{
				...testConfig(folder, databaseUrl()),
				limits: { ...defaultClassLimits, learnerRatePerSecond: 0.001, learnerBurst: 3 }
			},
			{ database: service.store.database }
		);
		const limitedServer = await startClassNodeServer(limited);
		try {
			const joined = await fetch(`${limitedServer.url}/api/class/join`, {
				method: 'POST',
				body: JSON.stringify({ code: classCode, name: 'Hasty' })
			});
			const { token } = (await joined.json()) as { token: string };
			const events = await fixtureEvents(1);
			const statuses: number[] = [];
			let retryAfter: string | null = null;
			for (let attempt = 0; attempt < 5; attempt++) {
				const response = await fetch(
					`${limitedServer.url}/api/class/ledgers/ledger-hasty-001/events`,
					{
						method: 'POST',
						headers: { authorization: `Bearer ${token}` },
						body: JSON.stringify({ events })
					}
				);
				statuses.push(response.status);
				retryAfter ??= response.headers.get('retry-after');
			}
			expect(statuses).toEqual([200, 200, 200, 429, 429]);
			expect(Number(retryAfter)).toBeGreaterThan(0);
		} finally {
			await limitedServer.close();
		}
	});

	it('records the model’s tool call digests for a learner, and shows them to the instructor', async () => {
		const token = await join_('Modeller');
		const ledger = 'ledger-model-0001';
		expect((await append(ledger, token, await fixtureEvents(1))).status).toBe(200);
		expect(await service.recordModelToolCalls('tl_learner_forged', 'openai/x', [])).toBe(false);
		expect(
			await service.recordModelToolCalls(token, 'openai/gpt', [
				{ toolCallId: 'call_1', toolName: 'write_to_file', input: { path: 'a.ts', content: 'x' } }
			])
		).toBe(true);
		const copy = await call(`/api/class/ledgers/${ledger}/events`, { token: instructorToken });
		expect(copy.body.model_tool_calls).toEqual([
			expect.objectContaining({
				tool_call_id: 'call_1',
				tool_name: 'write_to_file',
				model_id: 'openai/gpt'
			})
		]);
		expect(copy.body.model_tool_calls[0].arguments_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
	});
}
