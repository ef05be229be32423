import type { ChildProcess } from 'node:child_process';
import { startServer } from './start-server.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LedgerEvent } from '../hooks/ledger/ledger-event.js';
import { fixtureEvents } from '../server/testing/ledger-fixture.js';
import { postgresBinaries, startPostgresCluster } from '../server/testing/postgres-cluster.js';
import { summarize, type TimingSummary } from './statistics.js';

/**
 * The class server under load, on loopback only and bounded in time: simulated learners each
 * append 10 events/s (two commits of 5 events per second, like the IDE's commits) to their own
 * ledger against production `server.js` processes in class mode. Measures each receipt's
 * latency (request → signed receipt) and then checks with the instructor listing that every
 * ledger holds exactly the events sent (no lost, no duplicated event).
 *
 * THREADLINE_BENCH_CLASS_SECONDS (default 60) shortens the run; THREADLINE_BENCH_CLASS_LEARNERS
 * (default 200) changes the number of learners.
 */
export interface ClassLoadFigures {
	database: 'embedded' | 'postgresql';
	app_instances: number;
	learners: number;
	seconds: number;
	events_per_learner_per_second: number;
	receipts: number;
	receipt_latency_ms: TimingSummary | null;
	failed_requests: number;
	/** Why requests failed: HTTP status or the fetch error, with counts. */
	failures_by_reason: Record<string, number>;
	/** Commits not sent before the bound (the server was too slow to keep up). */
	unsent_commits: number;
	/** Receipted events the server does not hold, plus seqs stored twice or out of order. */
	lost_or_duplicated_events: number;
	budget?: { receipt_p99_ms: number };
	within_budget?: boolean;
	error?: string;
}

const instructorToken = 'tl_instructor_bench-token-0123456789abcdef';
const classCode = 'BENCH-CODE-0001';
const eventsPerCommit = 5;
const commitsPerSecond = 2;

async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
		});
	});
}

async function startClassServer(
	environment: Record<string, string>
): Promise<{ child: ChildProcess; url: string }> {
	const port = await freePort();
	const child = await startServer(port, {
		environment: {
			...environment,
			THREADLINE_CLASS_CODE: classCode,
			THREADLINE_INSTRUCTOR_TOKEN: instructorToken,
			THREADLINE_CLASS_ADDRESS_RATE: '1000',
			THREADLINE_CLASS_RATE: '100000'
		},
		startTimeoutMs: 120_000
	});
	return { child, url: `http://127.0.0.1:${port}` };
}

/**
 * The learners' requests go through node:http with kept-alive connections. The simulated class
 * shares the machine's two cores with the server, and with Node's fetch (undici) it used 1.75×
 * the CPU (25.4 s against 14.5 s over a 30 s run on each database): its own queueing showed up as
 * receipt latency (embedded p99 125 ms with fetch, 43 ms with node:http, the same server).
 */
function postJson(
	keptAlive: Agent,
	url: string,
	token: string,
	body: string
): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		const request = httpRequest(
			url,
			{
				method: 'POST',
				agent: keptAlive,
				headers: {
					authorization: `Bearer ${token}`,
					'content-type': 'application/json',
					'content-length': Buffer.byteLength(body)
				}
			},
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () =>
					resolve({
						status: response.statusCode ?? 0,
						body: Buffer.concat(chunks).toString('utf8')
					})
				);
				response.on('error', reject);
			}
		);
		request.on('error', reject);
		request.end(body);
	});
}

async function runLoad(
	urls: readonly string[],
	learners: number,
	seconds: number
): Promise<Omit<ClassLoadFigures, 'database' | 'app_instances'>> {
	// Join and prepare every learner's ledger before the clock starts.
	const commits = seconds * commitsPerSecond;
	const people = await Promise.all(
		Array.from({ length: learners }, async (_, index) => {
			const url = urls[index % urls.length] as string;
			const response = await fetch(`${url}/api/class/join`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ code: classCode, name: `Learner ${index + 1}` })
			});
			const { token, error } = (await response.json()) as { token?: string; error?: string };
			if (!token) throw new Error(`join refused (${response.status}): ${error}`);
			const events: LedgerEvent[] = await fixtureEvents(commits * eventsPerCommit, [], {
				sessionId: `learner-${index}`
			});
			return { url, token, ledger: `bench-ledger-${String(index).padStart(4, '0')}`, events };
		})
	);
	const latencies: number[] = [];
	let failed = 0;
	const reasons: Record<string, number> = {};
	const fail = async (reason: string) => {
		failed++;
		reasons[reason] = (reasons[reason] ?? 0) + 1;
		// A refused commit is resent after a pause, not in a tight loop.
		await new Promise((resolve) => setTimeout(resolve, 250));
	};
	const sent = new Map<string, number>();
	const keptAlive = new Agent({ keepAlive: true, maxSockets: 512 });
	const started = performance.now();
	await Promise.all(
		people.map(async (person, index) => {
			// Spread the learners over the first interval so they do not all fire at once.
			const offset = (index / people.length) * (1000 / commitsPerSecond);
			for (let commit = 0; commit < commits; commit++) {
				const due = started + offset + (commit * 1000) / commitsPerSecond;
				const wait = due - performance.now();
				if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
				const batch = person.events.slice(commit * eventsPerCommit, (commit + 1) * eventsPerCommit);
				const begin = performance.now();
				try {
					const response = await postJson(
						keptAlive,
						`${person.url}/api/class/ledgers/${person.ledger}/events`,
						person.token,
						JSON.stringify({ events: batch })
					);
					const body = JSON.parse(response.body) as { receipt?: { seq: number }; error?: string };
					if (response.status === 200 && body.receipt?.seq === batch.at(-1)?.seq) {
						latencies.push(performance.now() - begin);
						sent.set(person.ledger, batch.at(-1)?.seq ?? 0);
					} else {
						await fail(`${response.status} ${body.error ?? ''}`.trim());
						// Resend this commit next time round rather than leave a gap.
						commit--;
					}
				} catch (error) {
					await fail((error as NodeJS.ErrnoException).code ?? (error as Error).message);
					commit--;
				}
				if (performance.now() - started > (seconds + 60) * 1000) break;
			}
		})
	);
	keptAlive.destroy();
	const listing = (await (
		await fetch(`${urls[0]}/api/class/ledgers`, {
			headers: { authorization: `Bearer ${instructorToken}` }
		})
	).json()) as { ledgers: { ledger: string; head_seq: number }[] };
	let lost = 0;
	let unsent = 0;
	for (const person of people) {
		const stored = listing.ledgers.find((entry) => entry.ledger === person.ledger)?.head_seq ?? 0;
		const acknowledged = sent.get(person.ledger) ?? 0;
		lost += Math.max(0, acknowledged - stored);
		unsent += Math.ceil((commits * eventsPerCommit - acknowledged) / eventsPerCommit);
	}
	// The stored copies themselves: every seq once, in order (a sample of 20 ledgers).
	for (const person of people.slice(0, 20)) {
		const copy = (await (
			await fetch(`${urls[0]}/api/class/ledgers/${person.ledger}/events`, {
				headers: { authorization: `Bearer ${instructorToken}` }
			})
		).json()) as { events?: { seq: number; hash: string }[] };
		for (const [index, event] of (copy.events ?? []).entries()) {
			if (event.seq !== index + 1 || event.hash !== person.events[index]?.hash) lost++;
		}
	}
	return {
		learners,
		seconds,
		events_per_learner_per_second: eventsPerCommit * commitsPerSecond,
		receipts: latencies.length,
		receipt_latency_ms: latencies.length ? summarize(latencies) : null,
		failed_requests: failed,
		failures_by_reason: reasons,
		unsent_commits: unsent,
		lost_or_duplicated_events: lost
	};
}

export async function classWitnessLoadFigures(
	progress: (line: string) => void = () => undefined
): Promise<{ embedded: ClassLoadFigures; postgresql: ClassLoadFigures; within_budget: boolean }> {
	const seconds = Number(process.env.THREADLINE_BENCH_CLASS_SECONDS ?? 60);
	const learners = Number(process.env.THREADLINE_BENCH_CLASS_LEARNERS ?? 200);
	const budget = { receipt_p99_ms: 50 };

	const embedded = await measure(
		'embedded',
		1,
		progress,
		async () => {
			const folder = mkdtempSync(join(tmpdir(), 'threadline-bench-class-'));
			const server = await startClassServer({ THREADLINE_DATA_DIR: folder });
			return {
				urls: [server.url],
				stop: () => {
					server.child.kill('SIGTERM');
					rmSync(folder, { recursive: true, force: true });
				}
			};
		},
		learners,
		seconds
	);
	embedded.budget = budget;
	embedded.within_budget =
		embedded.error === undefined &&
		(embedded.receipt_latency_ms?.p99_ms ?? Infinity) <= budget.receipt_p99_ms &&
		embedded.lost_or_duplicated_events === 0 &&
		embedded.unsent_commits === 0;

	const postgresql = postgresBinaries()
		? await measure(
				'postgresql',
				2,
				progress,
				async () => {
					const cluster = await startPostgresCluster();
					const folder = mkdtempSync(join(tmpdir(), 'threadline-bench-class-pg-'));
					const servers: { child: ChildProcess; url: string }[] = [];
					try {
						// Two app instances share the database and the signing key file.
						for (let index = 0; index < 2; index++) {
							servers.push(
								await startClassServer({ DATABASE_URL: cluster.url, THREADLINE_DATA_DIR: folder })
							);
						}
					} catch (error) {
						for (const server of servers) server.child.kill('SIGTERM');
						cluster.stop();
						throw error;
					}
					return {
						urls: servers.map((server) => server.url),
						stop: () => {
							for (const server of servers) server.child.kill('SIGTERM');
							cluster.stop();
							rmSync(folder, { recursive: true, force: true });
						}
					};
				},
				learners,
				seconds
			)
		: ({
				database: 'postgresql',
				app_instances: 2,
				learners,
				seconds,
				events_per_learner_per_second: 10,
				receipts: 0,
				receipt_latency_ms: null,
				failed_requests: 0,
				failures_by_reason: {},
				unsent_commits: 0,
				lost_or_duplicated_events: 0,
				error: 'PostgreSQL binaries not found (apt-get install postgresql)'
			} satisfies ClassLoadFigures);
	// PostgreSQL with two instances is reported, not budgeted.
	return { embedded, postgresql, within_budget: embedded.within_budget };
}

async function measure(
	database: 'embedded' | 'postgresql',
	instances: number,
	progress: (line: string) => void,
	start: () => Promise<{ urls: string[]; stop: () => void }>,
	learners: number,
	seconds: number
): Promise<ClassLoadFigures> {
	progress(
		`class server load: ${learners} learners × 10 events/s for ${seconds} s, ${database}, ${instances} instance(s)`
	);
	let running: { urls: string[]; stop: () => void } | null = null;
	try {
		running = await start();
		return {
			database,
			app_instances: instances,
			...(await runLoad(running.urls, learners, seconds))
		};
	} catch (error) {
		// The bench must never crash: a failed measurement is a figure that says why.
		return {
			database,
			app_instances: instances,
			learners,
			seconds,
			events_per_learner_per_second: 10,
			receipts: 0,
			receipt_latency_ms: null,
			failed_requests: 0,
			failures_by_reason: {},
			unsent_commits: 0,
			lost_or_duplicated_events: 0,
			error: error instanceof Error ? error.message : String(error)
		};
	} finally {
		running?.stop();
	}
}

// `node bin/run-ts.js bench/class-witness-load.ts` runs this part alone (after `npm run build`).
if (process.argv[1]?.endsWith('class-witness-load.ts')) {
	const figures = await classWitnessLoadFigures((line) => process.stderr.write(`${line}\n`));
	process.stdout.write(`${JSON.stringify(figures, null, '\t')}\n`);
}
