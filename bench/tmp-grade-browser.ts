import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright';
import { orchestrationZip } from '../app/lib/ledger/export-orchestration.js';
import { chromiumArguments, chromiumExecutablePath } from '../e2e/chromium.js';
import { buildAuditLedger } from './audit-ledger.js';
import { startServer } from './start-server.js';

const count = Number(process.argv[2] ?? 20);
const folder = mkdtempSync(join(tmpdir(), 'tg-'));
const ledger = await buildAuditLedger({ events: 1000 });
const zip = await orchestrationZip({ events: ledger.events, activeIntentsYaml: ledger.intentsYaml, intents: ledger.intents, files: new Map() });
const files = Array.from({ length: count }, (_, i) => { const p = join(folder, `l-${i}.zip`); writeFileSync(p, zip); return p; });
const port = 4800 + Math.floor(Math.random() * 100);
const server = await startServer(port);
const browser = await chromium.launch({ executablePath: chromiumExecutablePath, args: chromiumArguments });
try {
	const page = await browser.newPage();
	await page.goto(`http://127.0.0.1:${port}/grade`); if (process.env.POOL) { await page.evaluate((p) => localStorage.setItem('tmp-pool', p), process.env.POOL); await page.reload(); }
	await page.getByLabel('Pick export zips or jsonl files').waitFor();
	const cdp = await page.context().newCDPSession(page);
	await cdp.send('Profiler.enable');
	await cdp.send('Profiler.start');
	const started = Date.now();
	const marks: number[] = [];
	await page.getByLabel('Pick export zips or jsonl files').setInputFiles(files);
	for (const n of [1, Math.ceil(count / 2), count]) {
		await page.waitForFunction((c) => document.querySelectorAll('table.grade-table [data-verdict], table.grade-table td.error').length >= c, n, { timeout: 300_000, polling: 50 });
		marks.push(Date.now() - started);
	}
	const { profile } = await cdp.send('Profiler.stop');
	let busy = 0, idle = 0;
	const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
	const by = new Map<string, number>();
	profile.samples!.forEach((s, i) => { const f = nodes.get(s)!.callFrame; const d = profile.timeDeltas![i]! / 1000; if (f.functionName === '(idle)') idle += d; else { busy += d; const k = `${f.functionName}@${f.url.split('/').at(-1)}:${f.lineNumber}`; by.set(k, (by.get(k) ?? 0) + d); } });
	console.log(JSON.stringify({ count, marks, busy: Math.round(busy), idle: Math.round(idle) }));
	console.log([...by].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => `${Math.round(v)} ${k}`).join('\n'));
} finally {
	await browser.close();
	server.kill('SIGTERM');
}
