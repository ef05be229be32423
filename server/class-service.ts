import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import packageJson from '../package.json' with { type: 'json' };
import { canonicalJsonPair } from '../hooks/ledger/canonical-json.js';
import type { ClassLedgerCertificate } from '../hooks/ledger/ledger-event.js';
import { bytesInWords, type ClassConfig } from './class-config.js';
import { RateLimiter } from './rate-limiter.js';
import { ClassStore, type AppendOutcome, type StoredEvent } from './storage/class-store.js';
import { openEmbeddedDatabase } from './storage/embedded-database.js';
import { migrate } from './storage/migrations.js';
import {
	classLogConsistencyProof,
	classLogHead,
	classLogInclusionProof
} from './storage/class-log.js';
import { classLogOrigin, signCheckpoint } from './witness/checkpoint.js';
import { openPostgresDatabase } from './storage/postgres-database.js';
import { learnerLedgerHead } from './storage/learner-ledger-head.js';
import type { SqlDatabase } from './storage/sql-database.js';
import type { QuotaRefusal, StorageQuotas } from './storage/storage-quota.js';
import { newToken, secretsEqual, tokenHash } from './tokens.js';
import {
	receiptSignatureValid,
	signCanonical,
	signReceipt,
	type SignedReceipt
} from './witness/receipt.js';
import { ledgerAttestation } from './witness/ledger-attestation.js';
import {
	loadOrCreateSigningKey,
	publicKeyFromBase64,
	type SigningKey
} from './witness/signing-key.js';

/** An answer of the class API: a status and a JSON body. */
export interface ClassAnswer {
	status: number;
	body: unknown;
	headers?: Record<string, string>;
}

const answer = (status: number, body: unknown, headers?: Record<string, string>): ClassAnswer => ({
	status,
	body,
	headers
});
const problem = (
	status: number,
	message: string,
	extra: object = {},
	headers?: Record<string, string>
): ClassAnswer => answer(status, { error: message, ...extra }, headers);

export const ledgerIdPattern = /^[A-Za-z0-9_-]{8,100}$/;
const hashPattern = /^sha256:[0-9a-f]{64}$/;
const maxNameLength = 80;

/**
 * Long enough for V8 to optimise the embedded database's hot code before learners arrive (class
 * bench: a cold server's first seconds set the p99); short beside its 5–10 s start.
 */
const defaultRehearsalMilliseconds = 1_500;

/** Learners kept in memory by token hash; far above a class's size. */
const learnerCacheSize = 10_000;
/**
 * The public class-log endpoints, per address: a witness polls the checkpoint and asks a proof
 * now and then; a proof reads every leaf below its size, so a flood is cut off here.
 */
const logRatePerSecond = 5;
const logBurst = 50;
/**
 * Proofs for the whole class (per instance): each reads and hashes every leaf below its size on
 * the server's one thread (measured 1.3–2.9 s at 100,000 leaves on the loaded 2-core test
 * machine), so many addresses together cannot stall the appends either.
 */
const proofRatePerSecond = 2;
const proofBurst = 20;

/** A proof parameter: a whole number written in decimal, or null. */
function logNumber(text: string | null): number | null {
	if (text === null || !/^(0|[1-9][0-9]{0,15})$/u.test(text)) return null;
	const value = Number(text);
	return Number.isSafeInteger(value) ? value : null;
}

/**
 * The class server: learners join with the class code, append their ledgers' events and get
 * signed receipts; the instructor lists and reads every ledger. Every method takes what came
 * over the wire (untrusted) and answers a status and a body.
 */
export class ClassService {
	readonly #learnerLimiter: RateLimiter;
	readonly #classLimiter: RateLimiter;
	readonly #addressLimiter: RateLimiter;
	readonly #joinLimiter: RateLimiter;
	readonly #logLimiter: RateLimiter;
	readonly #proofLimiter: RateLimiter;
	readonly #learnersByTokenHash = new Map<string, { id: string; name: string }>();

	private constructor(
		readonly config: ClassConfig,
		readonly store: ClassStore,
		private readonly signingKey: SigningKey,
		readonly classId: string,
		private readonly now: () => Date
	) {
		const limits = config.limits;
		this.#learnerLimiter = new RateLimiter(limits.learnerRatePerSecond, limits.learnerBurst);
		this.#classLimiter = new RateLimiter(limits.classRatePerSecond, limits.classBurst);
		this.#addressLimiter = new RateLimiter(limits.addressRatePerSecond, limits.addressBurst);
		this.#joinLimiter = new RateLimiter(limits.joinRatePerSecond, limits.joinBurst);
		this.#logLimiter = new RateLimiter(logRatePerSecond, logBurst);
		this.#proofLimiter = new RateLimiter(proofRatePerSecond, proofBurst);
	}

	/**
	 * Opens the store (embedded or PostgreSQL), migrates it, loads or creates the signing key, and
	 * checks that every instance sharing the database signs with the same key.
	 */
	static async open(
		config: ClassConfig,
		options: {
			now?: () => Date;
			maxConnections?: number;
			database?: SqlDatabase;
			/**
			 * How long the store rehearses appends before the first learner's (append-rehearsal.ts);
			 * 1.5 s for a database it opens itself, none for one handed in.
			 */
			rehearsalMilliseconds?: number;
		} = {}
	): Promise<ClassService> {
		const database = options.database
			? options.database
			: config.databaseUrl
				? await openPostgresDatabase(config.databaseUrl, { maxConnections: options.maxConnections })
				: await openEmbeddedDatabase(join(config.dataDirectory, 'class-db'));
		const store = new ClassStore(database, storageQuotas(config));
		try {
			await migrate(database);
			const signingKey = await loadOrCreateSigningKey(config.dataDirectory);
			const storedKey = await store.settleSetting('public_key', signingKey.publicKeyBase64);
			if (storedKey !== signingKey.publicKeyBase64) {
				throw new Error(
					`this instance's signing key (${join(config.dataDirectory, 'class-signing-key.pem')}) is not the one the class database was witnessed with (public key ${storedKey}): give every instance the same key file`
				);
			}
			const classId = await store.settleSetting(
				'class_id',
				config.classId ?? `class-${randomUUID().slice(0, 8)}`
			);
			// Last, once everything that can refuse to start has passed: a warm-up, so its failure
			// is a warning, never a reason not to serve.
			await store
				.rehearseAppends(
					// A database handed in may be serving already (tests): not rehearsed unless asked.
					options.rehearsalMilliseconds ?? (options.database ? 0 : defaultRehearsalMilliseconds)
				)
				.catch((error: unknown) =>
					console.warn(
						`class mode: the warm-up of the class database failed (${(error as Error).message}); serving anyway, the first appends may be slow`
					)
				);
			return new ClassService(
				config,
				store,
				signingKey,
				config.classId ?? classId,
				options.now ?? (() => new Date())
			);
		} catch (error) {
			await store.close().catch(() => undefined);
			throw error;
		}
	}

	get publicKey(): string {
		return this.signingKey.publicKeyBase64;
	}

	close(): Promise<void> {
		return this.store.close();
	}

	/** GET /api/class/key */
	key(): ClassAnswer {
		return answer(200, {
			class: this.classId,
			key: this.signingKey.publicKeyBase64,
			// What one append may carry, so the IDE's batches fit (ledger-witness.ts).
			limits: {
				max_body_bytes: this.config.limits.maxBodyBytes,
				max_events_per_request: this.config.limits.maxEventsPerBatch
			}
		});
	}

	/** POST /api/class/join {code, name} → {token} */
	async join(body: unknown, address: string): Promise<ClassAnswer> {
		// Joins are limited per class, not per address: a classroom often joins from behind one
		// address. Guessing the code is limited per address by its failures, checked before the
		// code is, so an address out of tries learns nothing even from the right code.
		const failures = `join-failed:${address}`;
		if (!this.#addressLimiter.has(failures)) return this.#tooMany(failures);
		if (typeof body !== 'object' || body === null) {
			return problem(400, 'send {"code": "<class code>", "name": "<your display name>"}');
		}
		const { code, name } = body as { code?: unknown; name?: unknown };
		if (typeof code !== 'string' || !secretsEqual(code.trim(), this.config.classCode)) {
			this.#addressLimiter.take(failures);
			return problem(403, 'that class code is not this class’s code');
		}
		const displayName = typeof name === 'string' ? name.normalize('NFC').trim() : '';
		if (!displayName || displayName.length > maxNameLength || hasControlCharacter(displayName)) {
			return problem(400, `a display name is 1 to ${maxNameLength} printable characters`);
		}
		if (!this.#joinLimiter.take('class')) return this.#tooMany('class', this.#joinLimiter);
		const token = newToken('tl_learner');
		const learner = { id: randomUUID(), name: displayName };
		const hash = tokenHash(token);
		await this.store.createLearner(learner, hash);
		// A learner's first append right after joining needs no lookup: at the start of a class
		// every learner's first lookup queued behind the others' appends on the embedded database
		// (one query at a time), and receipts took seconds.
		this.#rememberLearner(hash, learner);
		return answer(201, { token, class: this.classId, learner });
	}

	/**
	 * A learner admitted by an LMS launch (server/lti), without the class code: creates the learner
	 * when `existingId` is null, otherwise gives that learner a fresh token (the old one stops
	 * working). Answers the same body as `join`.
	 */
	async admitLearner(
		name: string,
		existingId: string | null
	): Promise<{ token: string; class: string; learner: { id: string; name: string } }> {
		const displayName = name.normalize('NFC').trim().slice(0, maxNameLength) || 'Learner';
		const token = newToken('tl_learner');
		const hash = tokenHash(token);
		const learner = { id: existingId ?? randomUUID(), name: displayName };
		if (existingId) {
			await this.store.replaceLearnerToken(existingId, hash);
			for (const [cached, known] of this.#learnersByTokenHash) {
				if (known.id === existingId) this.#learnersByTokenHash.delete(cached);
			}
		} else {
			await this.store.createLearner(learner, hash);
		}
		this.#rememberLearner(hash, learner);
		return { token, class: this.classId, learner };
	}

	/** POST /api/class/ledgers/:ledger/events {events} → signed receipt */
	async append(
		token: string | null,
		ledgerId: string,
		body: unknown,
		address: string
	): Promise<ClassAnswer> {
		const learner = await this.#learner(token, address);
		if ('status' in learner) return learner;
		if (!this.#learnerLimiter.take(learner.id))
			return this.#tooMany(learner.id, this.#learnerLimiter);
		if (!this.#classLimiter.take('class')) return this.#tooMany('class', this.#classLimiter);
		if (!ledgerIdPattern.test(ledgerId)) {
			return problem(400, 'a ledger id is 8 to 100 letters, digits, - or _');
		}
		const events = (body as { events?: unknown } | null)?.events;
		if (!Array.isArray(events) || events.length === 0) {
			return problem(
				400,
				'send {"events": [<ledger events as in audit.jsonl>]} with at least one event'
			);
		}
		if (events.length > this.config.limits.maxEventsPerBatch) {
			return problem(
				413,
				`at most ${this.config.limits.maxEventsPerBatch} events per request; send the rest in another`
			);
		}
		const scenario = scenarioName((body as { scenario?: unknown }).scenario);
		if (scenario instanceof Error) return problem(400, scenario.message);
		const checked = checkEventRun(events);
		if (typeof checked === 'string') return problem(422, checked);
		const forged = this.#forgedBirthCertificate(events[0], checked[0]);
		if (forged) return problem(422, forged);
		const receivedAt = this.now().toISOString();
		const outcome = await this.store.appendEvents(
			ledgerId,
			learner.id,
			checked,
			receivedAt,
			scenario
		);
		if (!outcome.ok) return refusedAppend(outcome);
		const signed: SignedReceipt = signReceipt(
			{
				ledger: ledgerId,
				learner: learner.id,
				learner_name: learner.name,
				...(outcome.genesis ? { genesis_hash: outcome.genesis } : {}),
				...(outcome.scenario ? { scenario: outcome.scenario } : {}),
				seq: outcome.seq,
				head_hash: outcome.headHash,
				received_at: receivedAt,
				...(outcome.log
					? {
							log: {
								index: outcome.log.index,
								size: outcome.log.size,
								root: outcome.log.root,
								checkpoint: this.#checkpoint(outcome.log.size, outcome.log.root),
								inclusion: outcome.log.inclusion
							}
						}
					: {})
			},
			this.signingKey.privateKey
		);
		return answer(200, signed);
	}

	/**
	 * POST /api/class/ledgers (learner) {scenario?} → a new ledger's birth certificate, signed:
	 * the IDE asks for it before a new history's first event and writes it into that event, so
	 * the history is bound to this ledger, this learner and this time from its first event on.
	 */
	async issueLedger(token: string | null, body: unknown, address: string): Promise<ClassAnswer> {
		const learner = await this.#learner(token, address);
		if ('status' in learner) return learner;
		if (!this.#learnerLimiter.take(learner.id))
			return this.#tooMany(learner.id, this.#learnerLimiter);
		const scenario = scenarioName((body as { scenario?: unknown } | null)?.scenario);
		if (scenario instanceof Error) return problem(400, scenario.message);
		const certificate: ClassLedgerCertificate = {
			kind: 'threadline-ledger-birth',
			class: this.classId,
			ledger: `ledger-${randomUUID()}`,
			learner: learner.id,
			learner_name: learner.name,
			...(scenario ? { scenario } : {}),
			issued_at: this.now().toISOString()
		};
		const refused = await this.store.issueLedger(
			certificate.ledger,
			learner.id,
			scenario,
			certificate.issued_at
		);
		if (refused) return quotaRefusal(refused);
		return answer(201, {
			certificate,
			signature: signCanonical(certificate, this.signingKey.privateKey)
		});
	}

	/** GET /api/class/ledgers/:ledger/head (learner): where the server's copy of my ledger ends. */
	async head(token: string | null, ledgerId: string, address: string): Promise<ClassAnswer> {
		const learner = await this.#learner(token, address);
		if ('status' in learner) return learner;
		// One query by id and learner, one answer for "no such ledger" and "not yours": the head
		// never tells a learner whether another learner's ledger id exists.
		const head = await learnerLedgerHead(this.store.database, ledgerId, learner.id);
		if (!head) return problem(404, 'you have no ledger with this id on the class server');
		return answer(200, { ledger: ledgerId, seq: head.seq, head_hash: head.hash });
	}

	/** GET /api/class/ledgers (instructor) */
	async listLedgers(token: string | null, address: string): Promise<ClassAnswer> {
		const denied = this.#instructor(token, address);
		if (denied) return denied;
		return answer(200, {
			class: this.classId,
			key: this.signingKey.publicKeyBase64,
			ledgers: await this.store.listLedgers()
		});
	}

	/** GET /api/class/ledgers/:ledger/events (instructor): the server's copy, forks and model calls. */
	async ledgerEvents(
		token: string | null,
		ledgerId: string,
		address: string
	): Promise<ClassAnswer> {
		const denied = this.#instructor(token, address);
		if (denied) return denied;
		const ledger = await this.store.ledger(ledgerId);
		if (!ledger) return problem(404, `the server holds no ledger ${ledgerId}`);
		const lines = await this.store.ledgerLines(ledgerId);
		return answer(200, {
			...ledger,
			events: lines.map((line) => JSON.parse(line) as unknown),
			refused: await this.store.forks(ledgerId),
			// Histories sent into this ledger that another held, and this ledger's history sent elsewhere.
			copies: await this.store.copies(ledgerId),
			// Every ledger of the learner, abandoned ones included, so a grader sees them all.
			learner_ledgers: await this.store.ledgersOfLearner(ledger.learner.id),
			model_tool_calls: await this.store.toolCallsOfLearner(ledger.learner.id)
		});
	}

	/**
	 * GET /api/class/ledgers/:ledger/attestation (instructor): the server's in-toto attestation of
	 * its copy of the ledger, signed with the class key (witness/ledger-attestation.ts).
	 */
	async attestLedger(
		token: string | null,
		ledgerId: string,
		address: string
	): Promise<ClassAnswer> {
		const denied = this.#instructor(token, address);
		if (denied) return denied;
		const ledger = await this.store.ledger(ledgerId);
		if (!ledger) return problem(404, `the server holds no ledger ${ledgerId}`);
		const lines = await this.store.ledgerLines(ledgerId);
		if (lines.length === 0)
			return problem(409, `the server has witnessed nothing of ledger ${ledgerId} yet`);
		return answer(200, await ledgerAttestation(lines, this.signingKey, packageJson.version));
	}

	/**
	 * The chat route's witness: digests of the tool calls the model returned to a learner.
	 * Returns false when the token is not a learner's (nothing is recorded then).
	 */
	async recordModelToolCalls(
		token: string | null,
		modelId: string,
		calls: readonly { toolCallId: string; toolName: string; input: unknown }[]
	): Promise<boolean> {
		if (!token) return false;
		const learner = await this.store.learnerByTokenHash(tokenHash(token));
		if (!learner) return false;
		await this.store.recordToolCalls(
			learner.id,
			modelId,
			calls.map((call) => ({
				tool_call_id: call.toolCallId,
				tool_name: call.toolName,
				arguments_hash: argumentsHash(call.input)
			}))
		);
		return true;
	}

	/**
	 * A first event's birth certificate must be one this server signed (any other is refused
	 * before the store; which ledger it names is the store's check).
	 */
	#forgedBirthCertificate(event: unknown, stored: StoredEvent | undefined): string | null {
		if (stored?.birthLedger === undefined) return null;
		const carried = (event as { class_ledger?: { certificate?: unknown; signature?: unknown } })
			.class_ledger;
		const certificate = carried?.certificate as Partial<ClassLedgerCertificate> | undefined;
		if (
			certificate?.kind !== 'threadline-ledger-birth' ||
			certificate.class !== this.classId ||
			!receiptSignatureValid(
				certificate,
				carried?.signature,
				publicKeyFromBase64(this.signingKey.publicKeyBase64)
			)
		) {
			return 'events[0] (seq 1) carries a birth certificate this class server did not sign';
		}
		return null;
	}

	async #learner(
		token: string | null,
		address: string
	): Promise<{ id: string; name: string } | ClassAnswer> {
		const failures = `auth:${address}`;
		if (!token) return problem(401, 'send your learner token: Authorization: Bearer <token>');
		const hash = tokenHash(token);
		const known = this.#learnersByTokenHash.get(hash);
		if (known) return known;
		const learner = await this.store.learnerByTokenHash(hash);
		if (learner) {
			this.#rememberLearner(hash, learner);
			return learner;
		}
		if (!this.#addressLimiter.take(failures)) return this.#tooMany(failures);
		// The instructor's token is not a learner's: no learner action happens under it.
		return problem(403, 'that token is not a learner of this class; join again');
	}

	/**
	 * Learners are never removed, so a token that named one always will: one query saved on every
	 * append (the embedded database runs one query at a time). Bounded: cleared when full.
	 */
	#rememberLearner(hash: string, learner: { id: string; name: string }): void {
		if (this.#learnersByTokenHash.size >= learnerCacheSize) this.#learnersByTokenHash.clear();
		this.#learnersByTokenHash.set(hash, learner);
	}

	/** The class log's checkpoint for `size` and `root`, signed (a C2SP signed note). */
	#checkpoint(size: number, root: string): string {
		return signCheckpoint(
			classLogOrigin(this.classId),
			size,
			root,
			this.signingKey.privateKey,
			this.signingKey.publicKeyBase64
		);
	}

	/** GET /api/class/log/checkpoint — public: the latest checkpoint, text/plain. */
	async logCheckpoint(address: string): Promise<ClassAnswer> {
		if (!this.#logLimiter.take(address)) return this.#tooMany(address, this.#logLimiter);
		const head = await classLogHead(this.store.database);
		return {
			status: 200,
			body: this.#checkpoint(head.size, head.root),
			headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }
		};
	}

	/**
	 * GET /api/class/log/proof/inclusion?index=I&size=N and …/consistency?from=M&to=N — public:
	 * `{hashes: [base64…]}`. Computed from every leaf below N (O(N), server/CONTEXT.md).
	 */
	async logProof(
		kind: 'inclusion' | 'consistency',
		parameters: URLSearchParams,
		address: string
	): Promise<ClassAnswer> {
		if (!this.#logLimiter.take(address)) return this.#tooMany(address, this.#logLimiter);
		if (!this.#proofLimiter.take('class')) return this.#tooMany('class', this.#proofLimiter);
		const [firstName, secondName] = kind === 'inclusion' ? ['index', 'size'] : ['from', 'to'];
		const first = logNumber(parameters.get(firstName));
		const second = logNumber(parameters.get(secondName));
		if (first === null || second === null)
			return problem(400, `send ?${firstName}=<number>&${secondName}=<number> (whole numbers)`);
		const { size } = await classLogHead(this.store.database);
		if (second > size) return problem(400, `the class log has ${size} leaves, not ${second}`);
		if (kind === 'inclusion' && first >= second)
			return problem(400, `leaf ${first} is not in a tree of ${second} leaves`);
		if (kind === 'consistency' && first > second)
			return problem(400, `from (${first}) must not be larger than to (${second})`);
		const hashes =
			kind === 'inclusion'
				? await classLogInclusionProof(this.store.database, first, second)
				: await classLogConsistencyProof(this.store.database, first, second);
		return answer(200, { hashes });
	}

	#instructor(token: string | null, address: string): ClassAnswer | null {
		if (!token) return problem(401, 'send the instructor token: Authorization: Bearer <token>');
		if (secretsEqual(token, this.config.instructorToken)) return null;
		const failures = `auth:${address}`;
		if (!this.#addressLimiter.take(failures)) return this.#tooMany(failures);
		return problem(403, 'only the instructor token may read the class’s ledgers');
	}

	#tooMany(key: string, limiter: RateLimiter = this.#addressLimiter): ClassAnswer {
		const seconds = limiter.retryAfterSeconds(key);
		return problem(
			429,
			`too many requests; retry in ${seconds} s`,
			{},
			{
				'Retry-After': String(seconds)
			}
		);
	}
}

/** The HTTP answer to an append the store refused; each a sentence the IDE can show. */
function refusedAppend(outcome: Exclude<AppendOutcome, { ok: true }>): ClassAnswer {
	switch (outcome.reason) {
		case 'foreign':
			return problem(403, 'this ledger belongs to another learner');
		case 'held':
			// The learner's own history under the id its browser forgot: continue that ledger.
			return problem(
				409,
				`your ledger ${outcome.ledger} already holds this history: continue it there`,
				{ code: 'history_held', ledger: outcome.ledger }
			);
		case 'copy':
			// Another learner's ledger is not named to this one (it is to the instructor).
			return problem(
				409,
				outcome.kind === 'rewrite'
					? outcome.sameLearner
						? `refused: this history rewrites your ledger ${outcome.originalLedger} from seq ${outcome.fromSeq}, which the server witnessed as it was; the rewrite is recorded for your instructor`
						: `refused: this history rewrites another learner's witnessed history from seq ${outcome.fromSeq}; recorded for your instructor`
					: `refused: this history was first witnessed for ${outcome.sameLearner ? `your ledger ${outcome.originalLedger}` : 'another learner'}; the copy is recorded for your instructor`,
				{ code: outcome.kind === 'rewrite' ? 'history_rewritten' : 'history_copied' }
			);
		case 'fork':
			return problem(409, `refused: ${outcome.message}`, {
				head: { seq: outcome.storedSeq, head_hash: outcome.storedHash }
			});
		case 'quota':
			return quotaRefusal(outcome);
	}
}

/** The store's quotas from the class settings. */
function storageQuotas(config: ClassConfig): StorageQuotas {
	const { learnerMaxBytes, learnerMaxLedgers, classMaxBytes } = config.limits;
	return { learnerMaxBytes, learnerMaxLedgers, classMaxBytes };
}

/**
 * A quota refusal: 413 when the bytes would pass the learner's or the class's quota, 429 when
 * the learner has started as many ledgers as allowed. `error` names the quota, `message` is the
 * sentence the IDE shows. Waiting does not help (the instructor raises the quota): Retry-After
 * asks clients to come back in ten minutes, not in a second.
 */
function quotaRefusal(outcome: QuotaRefusal): ClassAnswer {
	const headers = { 'Retry-After': String(quotaRetrySeconds) };
	const quota = { limit: outcome.limit, used: outcome.used, needed: outcome.needed };
	switch (outcome.quota) {
		case 'learner_ledgers':
			return answer(
				429,
				{
					error: 'learner_ledger_quota',
					message: `You have started ${outcome.used} ledgers on the class server, the most it keeps for one learner, so this new one is not witnessed: continue an earlier one, or ask your instructor to raise THREADLINE_CLASS_LEARNER_MAX_LEDGERS.`,
					quota
				},
				headers
			);
		case 'learner_bytes':
			return answer(
				413,
				{
					error: 'learner_storage_full',
					message: `Your class storage is full (${bytesInWords(outcome.used)} of ${bytesInWords(outcome.limit)}; these events need ${bytesInWords(outcome.needed)} more), so they are not witnessed: ask your instructor to raise THREADLINE_CLASS_LEARNER_MAX_BYTES.`,
					quota
				},
				headers
			);
		case 'class_bytes':
			return answer(
				413,
				{
					error: 'class_storage_full',
					message: `The class server's storage for this class is full (${bytesInWords(outcome.used)} of ${bytesInWords(outcome.limit)}), so your events are not witnessed: tell your instructor (THREADLINE_CLASS_MAX_STORED_BYTES).`,
					quota
				},
				headers
			);
	}
}

/** Retry-After of a quota refusal: long, since only the instructor can lift it. */
const quotaRetrySeconds = 600;

const maxScenarioLength = 300;

/** The scenario an append names (optional): printable text, at most 300 characters. */
function scenarioName(value: unknown): string | null | Error {
	if (value === undefined || value === null) return null;
	if (typeof value !== 'string') return new Error('scenario is a string naming the exercise');
	const name = value.normalize('NFC').trim();
	if (!name) return null;
	if (name.length > maxScenarioLength || hasControlCharacter(name)) {
		return new Error(`scenario is 1 to ${maxScenarioLength} printable characters`);
	}
	return name;
}

/** Names are shown to the instructor: no control characters (newlines, escapes, NUL). */
function hasControlCharacter(text: string): boolean {
	for (const character of text) {
		const code = character.codePointAt(0) ?? 0;
		if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return true;
	}
	return false;
}

/** sha256 of the canonical JSON of a tool call's arguments, `sha256:<hex>`. */
export function argumentsHash(input: unknown): string {
	const { full } = canonicalJsonPair(input ?? null, []);
	return `sha256:${createHash('sha256').update(full, 'utf8').digest('hex')}`;
}

/**
 * Checks a run of events on its own: each an object with integer seq, prev_hash, a hash that
 * matches its content, consecutive seqs linked by hash. Returns the events as the store keeps
 * them, or a sentence naming the first bad event. Whether the run extends the stored head is the
 * store's check (in the append's transaction).
 */
export function checkEventRun(events: readonly unknown[]): StoredEvent[] | string {
	const run: StoredEvent[] = [];
	for (const [index, event] of events.entries()) {
		const where = `events[${index}]`;
		if (typeof event !== 'object' || event === null || Array.isArray(event)) {
			return `${where} is not an object`;
		}
		const { seq, prev_hash: previousHash, hash, type, decision } = event as Record<string, unknown>;
		if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 1) {
			return `${where} has no seq (an integer from 1)`;
		}
		if (typeof previousHash !== 'string' || !hashPattern.test(previousHash)) {
			return `${where} (seq ${seq}) has no prev_hash (sha256:<64 hex>)`;
		}
		if (typeof hash !== 'string' || !hashPattern.test(hash)) {
			return `${where} (seq ${seq}) has no hash (sha256:<64 hex>)`;
		}
		if (typeof type !== 'string') return `${where} (seq ${seq}) has no type`;
		const before = run.at(-1);
		if (before && seq !== before.seq + 1) {
			return `${where} has seq ${seq} after seq ${before.seq}: events must be consecutive`;
		}
		if (before && previousHash !== before.hash) {
			return `${where} (seq ${seq}): prev_hash is not the hash of seq ${before.seq}`;
		}
		let canonical: { full: string; without: string };
		try {
			canonical = canonicalJsonPair(event, ['hash']);
		} catch (error) {
			return `${where} (seq ${seq}) is not plain JSON: ${(error as Error).message}`;
		}
		const computed = `sha256:${createHash('sha256')
			.update(previousHash + canonical.without, 'utf8')
			.digest('hex')}`;
		if (computed !== hash) return `${where} (seq ${seq}): hash does not match its content`;
		const birthLedger =
			seq === 1
				? (event as { class_ledger?: { certificate?: { ledger?: unknown } } }).class_ledger
						?.certificate?.ledger
				: undefined;
		run.push({
			seq,
			prev_hash: previousHash,
			hash,
			line: canonical.full,
			type,
			decision: typeof decision === 'string' ? decision : undefined,
			...(typeof birthLedger === 'string' ? { birthLedger } : {})
		});
	}
	return run;
}
