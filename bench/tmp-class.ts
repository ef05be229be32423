import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClassService } from '../server/class-service.js';
import { testConfig, classCode } from '../server/testing/class-api-suite.js';
import { fixtureEvents } from '../server/testing/ledger-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'tc-'));
const config = testConfig(dir, null);
config.limits = { ...config.limits, learnerRatePerSecond: 1e6, learnerBurst: 1e6, classRatePerSecond: 1e6, classBurst: 1e6, addressRatePerSecond: 1e6, addressBurst: 1e6 } as typeof config.limits;
import { openEmbeddedDatabase } from '../server/storage/embedded-database.js';
const database = await openEmbeddedDatabase(join(dir, 'class-db'));
const timings = new Map<string, number[]>();
const wrap = (executor: { query: (sql: string, p?: unknown[]) => Promise<unknown[]> }) => {
	const original = executor.query.bind(executor);
	executor.query = async (sql: string, p?: unknown[]) => { const t = performance.now(); try { return await original(sql, p); } finally { const k = sql.replace(/\s+/g, ' ').slice(0, 40); const list = timings.get(k) ?? []; list.push(performance.now() - t); timings.set(k, list); } };
	return executor;
};
wrap(database as never);
const originalTransaction = database.transaction.bind(database);
(database as { transaction: unknown }).transaction = (work: (t: unknown) => Promise<unknown>) => { const t0 = performance.now(); return originalTransaction((tx) => work(wrap(tx as never))).finally(() => { const l = timings.get('TX') ?? []; l.push(performance.now() - t0); timings.set('TX', l); }); };
const service = await ClassService.open(config, { database });
const learners = 50;
const tokens: string[] = [];
for (let i = 0; i < learners; i++) {
	const joined = await service.join({ code: classCode, name: `l${i}` }, `a${i}`);
	tokens.push((joined.body as { token: string }).token);
}
const events = await fixtureEvents(5 * 20);
const lines = events.map((e) => JSON.parse(JSON.stringify(e)));
const cpu = process.cpuUsage();
const started = performance.now();
const latencies: number[] = [];
for (let round = 0; round < 20; round++) {
	await Promise.all(tokens.map(async (token, i) => {
		const t = performance.now();
		const answer = await service.append(token, `ledger-${i}-xxxxxxxx`, { events: lines.slice(round * 5, round * 5 + 5) }, `a${i}`);
		if (answer.status !== 200) throw new Error(JSON.stringify(answer));
		latencies.push(performance.now() - t);
	}));
}
const total = performance.now() - started;
const used = process.cpuUsage(cpu);
latencies.sort((a, b) => a - b);
console.log(JSON.stringify({ appends: latencies.length, total_ms: Math.round(total), per_append_ms: +(total / latencies.length).toFixed(2), cpu_per_append_ms: +((used.user + used.system) / 1000 / latencies.length).toFixed(2), p50: Math.round(latencies[latencies.length >> 1]!), p99: Math.round(latencies[Math.floor(latencies.length * 0.99)]!) }));
for (const [k, v] of timings) console.log(k.padEnd(42), v.length, (v.reduce((a, b) => a + b, 0) / v.length).toFixed(3));
await (service as unknown as { close(): Promise<void> }).close?.();
process.exit(0);
