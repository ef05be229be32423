import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import { unzipSync, zipSync } from 'fflate';
import { captureOutput } from '../bin/cli/capture-output.js';
import { main } from '../bin/cli/main.js';
import { canonicalJson } from '../hooks/ledger/canonical-json.js';
import { hashAuditEvent } from '../hooks/ledger/ledger-chain.js';
import { genesisHash, type LedgerEvent } from '../hooks/ledger/ledger-event.js';
import { startPostgresCluster, type PostgresCluster } from '../server/testing/postgres-cluster.js';

// Class mode end to end: its own production server (server.js over the build the suite's web
// server made) with class mode on, two learners and a grader; once with the embedded database and
// once with a real PostgreSQL server (DATABASE_URL), started on a free port for the test.
const classCode = 'E2E-CLASS-CODE-1';
const instructorToken = 'tl_instructor_e2e-token-0123456789abcdef';
let dataDirectory: string;
let port: number;
let server: ChildProcess | null = null;
/** Set for the PostgreSQL run: the class server's DATABASE_URL. */
let databaseUrl: string | null = null;
const url = () => `http://127.0.0.1:${port}`;

async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = createServer();
		probe.once('error', reject);
		probe.listen(0, '127.0.0.1', () => {
			const address = probe.address();
			probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
		});
	});
}

async function startClassServer(): Promise<void> {
	const child = spawn(process.execPath, ['server.js'], {
		env: {
			...process.env,
			PORT: String(port),
			HOST: '127.0.0.1',
			THREADLINE_CLASS_CODE: classCode,
			THREADLINE_INSTRUCTOR_TOKEN: instructorToken,
			THREADLINE_CLASS_ID: 'e2e-class',
			THREADLINE_DATA_DIR: dataDirectory,
			...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
			BODY_SIZE_LIMIT: '4M'
		},
		stdio: ['ignore', 'pipe', 'pipe']
	});
	server = child;
	await new Promise<void>((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error('class server did not start')), 120_000);
		child.stdout?.on('data', (chunk: Buffer) => {
			if (chunk.toString().includes('listening')) {
				clearTimeout(timer);
				resolve();
			}
		});
		child.on('exit', (code) => reject(new Error(`server.js exited with ${code}`)));
	});
}

async function stopClassServer(): Promise<void> {
	const child = server;
	server = null;
	if (!child || child.exitCode !== null) return;
	const exited = new Promise((resolve) => child.once('exit', resolve));
	child.kill('SIGTERM');
	await exited;
}

async function learnerPage(browser: Browser, name: string): Promise<Page> {
	const context = await browser.newContext({ baseURL: url() });
	const page = await context.newPage();
	await page.goto('/?scenario=jwt-auth');
	await expect(page.getByRole('tree', { name: 'Workspace files' })).toBeVisible({
		timeout: 60_000
	});
	const brief = page.getByRole('dialog');
	await expect(brief).toBeVisible({ timeout: 30_000 });
	await brief.getByRole('button', { name: 'Close', exact: true }).click();
	await page.getByRole('button', { name: 'Join class' }).click();
	const join = page.getByRole('dialog', { name: 'Join class e2e-class' });
	await join.getByLabel('Class code').fill(classCode);
	await join.getByLabel('Display name').fill(name);
	await join.getByRole('button', { name: 'Join' }).click();
	await expect(join).toBeHidden();
	return page;
}

/** Sends the demo prompt and waits for its first file change to ask for approval. */
async function startDemo(page: Page) {
	const composer = page.getByRole('textbox', { name: 'Message to the agent' });
	await composer.fill('Run the demo.');
	await composer.press('Enter');
	const changeFiles = page.getByRole('dialog', { name: 'The agent wants to change files' });
	await expect(changeFiles).toBeVisible({ timeout: 60_000 });
	return changeFiles;
}

async function approve(dialog: ReturnType<Page['getByRole']>): Promise<void> {
	const button = dialog.getByRole('button', { name: 'Approve', exact: true });
	await expect(button).toHaveAttribute('aria-disabled', 'false');
	await button.click();
	await expect(dialog).toBeHidden();
}

async function instructorListing() {
	const response = await fetch(`${url()}/api/class/ledgers`, {
		headers: { authorization: `Bearer ${instructorToken}` }
	});
	return (await response.json()) as {
		ledgers: {
			ledger: string;
			learner: { name: string };
			events: number;
			mutations: number;
			forks: number;
		}[];
	};
}

async function verifyZip(path: string) {
	const streams = captureOutput();
	const code = await main(
		['verify', path, '--witness', url(), '--token', instructorToken],
		streams.output
	);
	return { code, text: [...streams.out, ...streams.err].join('\n') };
}

/** Two learners, an outage, the grader's class view and a tampered export, against one server. */
async function classScenario(browser: Browser, testInfo: TestInfo): Promise<void> {
	const ada = await learnerPage(browser, 'Ada');
	const grace = await learnerPage(browser, 'Grace');
	const status = (page: Page) => page.getByTestId('class-status');

	await approve(await startDemo(ada));
	await expect(status(ada)).toHaveText('Class: e2e-class — witnessed', { timeout: 60_000 });

	// The server goes down mid-session: Grace keeps working, unwitnessed.
	const graceAsks = await startDemo(grace);
	await expect(status(grace)).toHaveText('Class: e2e-class — witnessed', { timeout: 60_000 });
	await stopClassServer();
	await approve(graceAsks);
	await expect(status(grace)).toContainText('— not witnessed since', { timeout: 60_000 });
	await expect(grace.getByRole('treeitem', { name: 'src', exact: true })).toBeVisible();

	// It comes back: Grace's browser catches up by itself (retry with backoff).
	await startClassServer();
	await expect(status(grace)).toHaveText('Class: e2e-class — witnessed', { timeout: 120_000 });

	// The grader: both learners, each ledger as long as what the learner's browser holds.
	const listing = await instructorListing();
	const byName = new Map(listing.ledgers.map((entry) => [entry.learner.name, entry]));
	expect([...byName.keys()].sort()).toEqual(['Ada', 'Grace']);
	for (const entry of listing.ledgers) {
		expect(entry.events).toBeGreaterThan(3);
		expect(entry.mutations).toBeGreaterThanOrEqual(1);
		expect(entry.forks).toBe(0);
	}

	// The grader's desk, "Class" source: both ledgers straight from the server, witness status shown,
	// graded by the same code as any export (ledger only: the server holds no workspace).
	const graderContext = await browser.newContext({ baseURL: url() });
	const grader = await graderContext.newPage();
	await grader.goto('/grade');
	await grader.getByText('Class server: grade the ledgers it witnessed').click();
	await grader.getByRole('button', { name: 'Load class', exact: true }).click();
	await expect(grader.getByRole('alert')).toContainText('Enter the instructor token');
	await grader.getByLabel('Instructor token').fill('tl_instructor_wrong-token-0123456789');
	await grader.getByRole('button', { name: 'Load class', exact: true }).click();
	await expect(grader.getByRole('alert')).toContainText(
		'refused (403): only the instructor token may read the class’s ledgers'
	);
	await grader.getByLabel('Server', { exact: true }).fill('class.example.org');
	await grader.getByRole('button', { name: 'Load class', exact: true }).click();
	await expect(grader.getByRole('alert')).toContainText('is not an address');
	await grader.getByLabel('Server', { exact: true }).fill('');
	await grader.getByLabel('Instructor token').fill(instructorToken);
	await grader.getByRole('button', { name: 'Load class', exact: true }).click();
	const classTable = grader.getByRole('table', { name: 'Class e2e-class' });
	for (const entry of listing.ledgers) {
		const row = classTable.getByRole('row').filter({ hasText: entry.learner.name });
		// The learner's tab may still be witnessing (a receipt, a later commit): at least as many.
		await expect(row).toContainText(/\(\d+ events\)/);
		const shown = Number(/\((\d+) events\)/.exec((await row.textContent()) ?? '')?.[1]);
		expect(shown).toBeGreaterThanOrEqual(entry.events);
	}
	await grader.getByRole('button', { name: 'Grade all 2 ledger(s)' }).click();
	await expect(grader.getByText('Added 2 witnessed ledger(s) to the desk below.')).toBeVisible({
		timeout: 30_000
	});
	for (const entry of listing.ledgers) {
		const verdict = grader
			.locator(
				`table.grade-table > tbody > tr[data-export="${entry.learner.name} (class ledger ${entry.ledger})"]`
			)
			.locator('[data-verdict]');
		await expect(verdict).toHaveAttribute('data-verdict', 'verified', { timeout: 60_000 });
		await expect(verdict).toContainText('chains only: no workspace files');
	}
	await graderContext.close();

	// Grace exports; the honest export passes witnessed verify.
	await grace.getByRole('tab', { name: 'Trace', exact: true }).click();
	const downloadPromise = grace.waitForEvent('download');
	await grace.getByRole('button', { name: 'Export .orchestration' }).click();
	const zipPath = testInfo.outputPath('grace.zip');
	await (await downloadPromise).saveAs(zipPath);
	const honest = await verifyZip(zipPath);
	expect(honest.text).toContain('of Grace');
	expect(honest.code).toBe(0);

	// She rewrites a blocked call as allowed and recomputes the chain: caught, the event named.
	const entries = unzipSync(new Uint8Array(await readFile(zipPath)));
	const auditName = Object.keys(entries).find((name) =>
		name.endsWith('.orchestration/audit.jsonl')
	) as string;
	const events = new TextDecoder()
		.decode(entries[auditName])
		.trim()
		.split('\n')
		.map((line) => JSON.parse(line) as LedgerEvent);
	const target = events.find(
		(event) => event.type === 'tool-decision' && event.decision === 'deny'
	);
	expect(target).toBeDefined();
	let previous = genesisHash;
	const forged: LedgerEvent[] = [];
	for (const event of events) {
		const body = {
			...(event === target ? { ...event, decision: 'allow' } : event),
			prev_hash: previous
		} as LedgerEvent;
		const hash = await hashAuditEvent(body);
		forged.push({ ...body, hash });
		previous = hash;
	}
	entries[auditName] = new TextEncoder().encode(
		forged.map((event) => canonicalJson(event) + '\n').join('')
	);
	const tamperedPath = testInfo.outputPath('grace-tampered.zip');
	await writeFile(tamperedPath, zipSync(entries));
	const tampered = await verifyZip(tamperedPath);
	expect(tampered.code).toBe(1);
	expect(tampered.text).toContain(`seq ${target?.seq} differs from the server’s copy`);
}

for (const storage of ['embedded', 'postgresql'] as const) {
	test.describe(`class mode with the ${storage} database`, () => {
		let cluster: PostgresCluster | null = null;

		test.beforeAll(async () => {
			// The embedded database's first open runs initdb (PGlite): seconds, more on a busy machine.
			test.setTimeout(180_000);
			dataDirectory = mkdtempSync(join(tmpdir(), 'threadline-e2e-class-'));
			cluster = storage === 'postgresql' ? await startPostgresCluster() : null;
			databaseUrl = cluster?.url ?? null;
			port = await freePort();
			await startClassServer();
		});

		test.afterAll(async () => {
			await stopClassServer();
			cluster?.stop();
			cluster = null;
			databaseUrl = null;
			rmSync(dataDirectory, { recursive: true, force: true });
		});

		test('two learners are witnessed, survive a server outage, and a tampered export is caught', async ({
			browser
		}, testInfo) => {
			test.setTimeout(480_000);
			await classScenario(browser, testInfo);
		});
	});
}
