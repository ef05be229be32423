import { generateKeyPairSync, verify as verifyEd25519 } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseIntents } from '../../hooks/intents/parse-intents.js';
import { renderIntentMap } from '../../hooks/ledger/intent-map.js';
import { canonicalJson } from '../../hooks/ledger/canonical-json.js';
import { hashAuditEvent } from '../../hooks/ledger/ledger-chain.js';
import { genesisHash, type LedgerEvent } from '../../hooks/ledger/ledger-event.js';
import { startClassNodeServer } from '../../server/class-node-server.js';
import { ClassService } from '../../server/class-service.js';
import { openEmbeddedDatabase } from '../../server/storage/embedded-database.js';
import { publicKeyFromBase64, rawPublicKeyBase64 } from '../../server/witness/signing-key.js';
import { checkReceiptLogs } from './class-log-check.js';
import { frontierAppend } from '../../hooks/witness/merkle-log.js';
import { classCode, instructorToken, testConfig } from '../../server/testing/class-api-suite.js';
import { captureOutput } from './capture-output.js';
import { main } from './main.js';

const fixtures = join(import.meta.dirname, '..', 'fixtures');
let folder: string;
let service: ClassService;
let server: Awaited<ReturnType<typeof startClassNodeServer>>;
/** The honest export's audit events, witnessed: all of the demo's events, then the receipt. */
let witnessed: LedgerEvent[];
let workspace: string;
const ledger = 'ledger-cli-witness';

async function rechain(events: readonly object[]): Promise<LedgerEvent[]> {
	let previous = genesisHash;
	const out: LedgerEvent[] = [];
	for (const [index, event] of events.entries()) {
		const body = { ...event, seq: index + 1, prev_hash: previous } as LedgerEvent;
		const hash = await hashAuditEvent(body);
		out.push({ ...body, hash });
		previous = hash;
	}
	return out;
}

async function exportWith(events: readonly LedgerEvent[]): Promise<string> {
	const copy = await mkdtemp(join(tmpdir(), 'threadline-witness-export-'));
	await cp(workspace, copy, { recursive: true });
	await writeFile(
		join(copy, '.orchestration', 'audit.jsonl'),
		events.map((event) => canonicalJson(event) + '\n').join('')
	);
	// The exporter derives intent_map.md from the whole ledger (receipts included); so must we.
	const intents = parseIntents(
		await readFile(join(copy, '.orchestration', 'active_intents.yaml'), 'utf8')
	);
	await writeFile(
		join(copy, '.orchestration', 'intent_map.md'),
		renderIntentMap(events, intents.ok ? intents.document.intents : [])
	);
	return copy;
}

async function verify(path: string, ...extra: string[]) {
	const streams = captureOutput();
	const code = await main(['verify', path, ...extra], streams.output);
	return { code, text: [...streams.out, ...streams.err].join('\n') };
}

beforeAll(async () => {
	folder = await mkdtemp(join(tmpdir(), 'threadline-witness-'));
	service = await ClassService.open(testConfig(folder, null), {
		database: await openEmbeddedDatabase(null)
	});
	server = await startClassNodeServer(service);
	workspace = join(folder, 'workspace');
	await cp(join(fixtures, 'trp1-workspace'), workspace, { recursive: true });
	const replay = captureOutput();
	expect(
		await main(
			['replay', join(fixtures, 'trp1-demo.yaml'), '--workspace', workspace],
			replay.output
		)
	).toBe(0);
	const events = (await readFile(join(workspace, '.orchestration', 'audit.jsonl'), 'utf8'))
		.trim()
		.split('\n')
		.map((line) => JSON.parse(line) as LedgerEvent);
	const joined = await fetch(`${server.url}/api/class/join`, {
		method: 'POST',
		body: JSON.stringify({ code: classCode, name: 'Ada' })
	});
	const { token } = (await joined.json()) as { token: string };
	const answer = await fetch(`${server.url}/api/class/ledgers/${ledger}/events`, {
		method: 'POST',
		headers: { authorization: `Bearer ${token}` },
		body: JSON.stringify({ events })
	});
	expect(answer.status).toBe(200);
	const signed = (await answer.json()) as { receipt: unknown; signature: string };
	witnessed = await rechain([
		...events,
		{
			type: 'witness-receipt',
			session_id: 'class-witness',
			timestamp: events.at(-1)?.timestamp,
			...signed
		}
	]);
}, 120_000);

afterAll(async () => {
	await server?.close();
	await service?.close();
	await rm(folder, { recursive: true, force: true });
});

describe('threadline verify --witness-key / --witness', () => {
	it('passes an honest witnessed export with the key (base64 or URL) and against the server', async () => {
		const path = await exportWith(witnessed);
		const withKey = await verify(path, '--witness-key', service.publicKey);
		expect(withKey.text).toContain('witnessed up to seq');
		expect(withKey.code).toBe(0);
		expect((await verify(path, '--witness-key', server.url)).code).toBe(0);
		const withServer = await verify(path, '--witness', server.url, '--token', instructorToken);
		expect(withServer.text).toContain('of Ada');
		expect(withServer.code).toBe(0);
	});

	it('reports events after the last receipt as not witnessed', async () => {
		const extra = await rechain([
			...witnessed,
			{
				// A read: it changes no file the export derives (a lesson would change AGENT.md).
				type: 'tool-call-start',
				session_id: 'builder',
				tool: 'read_file',
				tool_call_id: 'call-late',
				input: { path: 'README.md' },
				timestamp: witnessed[0]?.timestamp
			}
		]);
		const path = await exportWith(extra);
		const result = await verify(path, '--witness-key', service.publicKey);
		expect(result.text).toMatch(/not witnessed: 1 event\(s\), seq \d+–\d+/);
		// Never OK by default: the grader accepts an unwitnessed tail explicitly.
		expect(result.code).toBe(1);
		expect(result.text).toContain('--allow-unwitnessed-tail');
		expect(result.text).not.toMatch(/^OK/m);
		const accepted = await verify(
			path,
			'--witness-key',
			service.publicKey,
			'--allow-unwitnessed-tail'
		);
		expect(accepted.code).toBe(0);
		expect(accepted.text).toContain('accepted: --allow-unwitnessed-tail');
	});

	it('names the learner the ledger was bound to, from the receipts alone', async () => {
		const result = await verify(await exportWith(witnessed), '--witness-key', service.publicKey);
		expect(result.text).toMatch(
			/witnessed for: Ada \(learner [0-9a-f-]+\), ledger ledger-cli-witness/
		);
	});

	it('fails a rewritten, recomputed export and names the first rewritten event', async () => {
		const target = witnessed.find(
			(event) => event.type === 'tool-decision' && event.decision === 'deny'
		);
		expect(target).toBeDefined();
		const forged = await rechain(
			witnessed.map((event) => (event === target ? { ...event, decision: 'allow' } : event))
		);
		const path = await exportWith(forged);
		const withKey = await verify(path, '--witness-key', service.publicKey);
		expect(withKey.code).toBe(1);
		expect(withKey.text).toContain('was rewritten after the server witnessed it');
		const withServer = await verify(path, '--witness', server.url, '--token', instructorToken);
		expect(withServer.code).toBe(1);
		expect(withServer.text).toContain(`seq ${target?.seq} differs from the server’s copy`);
	});

	it('fails a truncated export and a history replayed from scratch', async () => {
		const truncated = witnessed.slice(0, 10);
		const cut = await verify(
			await exportWith(truncated),
			'--witness',
			server.url,
			'--token',
			instructorToken,
			'--ledger',
			ledger
		);
		expect(cut.code).toBe(1);
		expect(cut.text).toContain('TRUNCATED');
		const replayed = await rechain(
			witnessed
				.filter((event) => event.type !== 'witness-receipt')
				.map((event) => ({ ...event, session_id: `${event.session_id}-clean` }))
		);
		const fromScratch = await verify(
			await exportWith(replayed),
			'--witness',
			server.url,
			'--token',
			instructorToken
		);
		expect(fromScratch.code).toBe(1);
		expect(fromScratch.text).toContain('never witnessed');
		const keyOnly = await verify(await exportWith(replayed), '--witness-key', service.publicKey);
		expect(keyOnly.code).toBe(1);
		expect(keyOnly.text).toContain('nothing in this export was witnessed');
	});

	it('checks the class server’s own attestation of a ledger it witnessed (in-toto in DSSE, the class key)', async () => {
		const fetchAttestation = (token: string) =>
			fetch(`${server.url}/api/class/ledgers/${ledger}/attestation`, {
				headers: { authorization: `Bearer ${token}` }
			});
		const response = await fetchAttestation(instructorToken);
		expect(response.status).toBe(200);
		const file = join(folder, 'server.intoto.json');
		await writeFile(file, await response.text());
		// An export of exactly what the server stored: its files are the attested ones.
		const asStored = await verify(
			await exportWith(witnessed.slice(0, -1)),
			'--attestation',
			file,
			'--witness-key',
			service.publicKey
		);
		expect(asStored.text).not.toContain('FAILED');
		expect(asStored.code).toBe(0);
		// One more event than the server vouched for: the subjects no longer match.
		const grown = await verify(
			await exportWith(witnessed),
			'--attestation',
			file,
			'--witness-key',
			service.publicKey
		);
		expect(grown.code).toBe(1);
		expect(grown.text).toContain('FAILED (attestation)');
		// Signed with the class key, not another one.
		const otherKey = rawPublicKeyBase64(generateKeyPairSync('ed25519').publicKey);
		expect(
			(
				await verify(
					await exportWith(witnessed.slice(0, -1)),
					'--attestation',
					file,
					'--witness-key',
					otherKey
				)
			).code
		).toBe(1);
		// Only the instructor may ask for one.
		expect((await fetchAttestation('tl_learner_someone')).status).toBe(403);
	});

	it('refuses a receipt signed by another key', async () => {
		const otherKey = rawPublicKeyBase64(generateKeyPairSync('ed25519').publicKey);
		const result = await verify(await exportWith(witnessed), '--witness-key', otherKey);
		expect(result.code).toBe(1);
		expect(result.text).toContain('signature is not the class key');
	});

	it('checks the receipt is included in a signed checkpoint of the class log, offline', async () => {
		const path = await exportWith(witnessed);
		const result = await verify(path, '--witness-key', service.publicKey);
		expect(result.text).toContain('1 receipt(s) included in signed checkpoints');
		expect(result.code).toBe(0);
		// The same receipt with a proof that does not reach the checkpoint's root (the receipt's
		// own signature is taken as valid here, to reach the log check).
		const receiptEvent = witnessed.at(-1) as Extract<LedgerEvent, { type: 'witness-receipt' }>;
		const log = receiptEvent.receipt.log;
		if (!log) throw new Error('the receipt has no class log part');
		const broken = {
			...receiptEvent,
			receipt: { ...receiptEvent.receipt, log: { ...log, index: log.index === 0 ? 1 : 0 } }
		};
		const rawKey = new Uint8Array(Buffer.from(service.publicKey, 'base64'));
		const verifyNote = (message: Uint8Array, signature: Uint8Array, key: Uint8Array) =>
			verifyEd25519(
				null,
				message,
				publicKeyFromBase64(Buffer.from(key).toString('base64')),
				signature
			);
		const honest = checkReceiptLogs([receiptEvent], rawKey, verifyNote, () => true);
		expect(honest).toMatchObject({ checked: 1, problems: [] });
		const checked = checkReceiptLogs([broken], rawKey, verifyNote, () => true);
		expect(checked.checked).toBe(0);
		expect(checked.problems[0]?.problem).toMatch(/inclusion proof fails|size or root/);
	});

	it('fails --witness when the server rewrote its class log after the export saw it', async () => {
		const path = await exportWith(witnessed);
		expect(
			(await verify(path, '--witness', server.url, '--token', instructorToken)).text
		).toContain('extends the checkpoint');
		const [row] = await service.store.database.query<{ leaf_hash: string }>(
			'SELECT leaf_hash FROM log_leaves WHERE index = 0'
		);
		// Whoever holds the database rewrites the first leaf and recomputes the log's state from
		// the leaves, as a careful rewrite would.
		const [state] = await service.store.database.query<{ frontier: string }>(
			'SELECT frontier FROM log_state'
		);
		await service.store.database.query(
			"UPDATE log_leaves SET leaf_hash = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' WHERE index = 0"
		);
		const leaves = await service.store.database.query<{ leaf_hash: string }>(
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
		await service.store.database.query('UPDATE log_state SET frontier = $1', [
			JSON.stringify(frontier.map((hash) => Buffer.from(hash).toString('base64')))
		]);
		try {
			const result = await verify(path, '--witness', server.url, '--token', instructorToken);
			expect(result.code).toBe(1);
			expect(result.text).toContain('rewrote or forked its log');
		} finally {
			await service.store.database.query('UPDATE log_leaves SET leaf_hash = $1 WHERE index = 0', [
				row?.leaf_hash
			]);
			await service.store.database.query('UPDATE log_state SET frontier = $1', [state?.frontier]);
		}
	});

	it('says what is wrong with bad witness arguments', async () => {
		const path = await exportWith(witnessed);
		expect((await verify(path, '--witness-key', 'AAAA')).text).toContain('32 bytes');
		expect((await verify(path, '--witness', server.url)).text).toContain('--token');
		const wrongToken = await verify(path, '--witness', server.url, '--token', 'nope');
		expect(wrongToken.code).toBe(2);
		expect(wrongToken.text).toContain('403');
	});
});
