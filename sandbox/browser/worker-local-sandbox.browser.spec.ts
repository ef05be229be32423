import { afterEach, describe, expect, it } from 'vitest';
import { describeSandboxContract } from '../contract/sandbox-contract.js';
import { IndexedDbWorkspaceFiles } from '../local/indexeddb-workspace-files.js';
import { MemoryWorkspaceFiles } from '../local/memory-workspace-files.js';
import type { Sandbox } from '../sandbox.js';
import { committingEverything } from '../contract/committing-sandbox.js';
import { createWorkerLocalSandbox as createWorkerLocalSandboxWithoutReview } from './worker-local-sandbox.js';

// These tests are about what commands do: every change is committed (see committing-sandbox.ts).
const createWorkerLocalSandbox = async (
	...parameters: Parameters<typeof createWorkerLocalSandboxWithoutReview>
) => committingEverything(await createWorkerLocalSandboxWithoutReview(...parameters));

// Runs in Chromium (vitest.browser.config.ts): a real module Worker, real IndexedDB, QuickJS's
// wasm served by Vite under COEP require-corp.

const stores: IndexedDbWorkspaceFiles[] = [];
let storeCounter = 0;

async function openStore(
	options: Parameters<typeof IndexedDbWorkspaceFiles.open>[1] = {},
	name = freshDatabaseName()
): Promise<IndexedDbWorkspaceFiles> {
	const store = await IndexedDbWorkspaceFiles.open(name, options);
	stores.push(store);
	return store;
}

function freshDatabaseName(): string {
	storeCounter += 1;
	return `threadline-browser-test-${Date.now()}-${storeCounter}`;
}

afterEach(async () => {
	for (const store of stores.splice(0)) {
		await store.close();
		await IndexedDbWorkspaceFiles.deleteDatabase(store.name);
	}
});

describeSandboxContract('local in a Worker, over memory (Chromium)', () =>
	createWorkerLocalSandbox({ files: new MemoryWorkspaceFiles() })
);

describeSandboxContract('local in a Worker, over IndexedDB (Chromium)', async () =>
	createWorkerLocalSandbox({ files: await openStore() })
);

describe('the Worker-backed local sandbox in Chromium', () => {
	let sandbox: Sandbox | undefined;

	afterEach(async () => {
		await sandbox?.dispose();
		sandbox = undefined;
	});

	/** Limits high enough that only the signal, the timeout or the Worker's end stop a loop. */
	const unboundedLoops = { maxCommandCount: 1e9, maxLoopIterations: 1e9 };

	it('stops a runaway loop on abort while the page keeps running timers', async () => {
		const files = new MemoryWorkspaceFiles({ 'kept.txt': 'kept\n' });
		sandbox = await createWorkerLocalSandbox({ files, limits: unboundedLoops });
		let ticks = 0;
		const ticker = setInterval(() => (ticks += 1), 20);
		const controller = new AbortController();
		let ticksWhenAborted = 0;
		setTimeout(() => {
			ticksWhenAborted = ticks;
			controller.abort();
		}, 600);
		// If the abort did not stop the loop, the test's own timeout would fail it (no clock here).
		const result = await sandbox.exec('echo partial > partial.txt; while true; do :; done', {
			signal: controller.signal
		});
		clearInterval(ticker);

		// The page's own timers fired all along: the loop ran in the Worker.
		expect(ticksWhenAborted).toBeGreaterThanOrEqual(10);
		expect(result).toMatchObject({ exitCode: 124, interrupted: true, changes: [] });
		expect(result.output).toMatch(/restarted.*discarded/s);
		// The killed command's changes never reached the page's copy.
		expect(await sandbox.fs.stat('partial.txt')).toBeNull();
		// A fresh Worker took over from the page's copy.
		expect((await sandbox.exec('cat kept.txt')).output).toBe('kept\n');
	});

	it('stops a runaway loop at the timeout', async () => {
		sandbox = await createWorkerLocalSandbox({
			files: new MemoryWorkspaceFiles(),
			limits: unboundedLoops
		});
		const result = await sandbox.exec('while true; do :; done', { timeoutMs: 500 });
		expect(result).toMatchObject({ exitCode: 124, interrupted: true });
		expect(result.output).toMatch(/timed out after 500 ms/);
	});

	it('stops a runaway terminal line on Ctrl+C with exit code 130', async () => {
		sandbox = await createWorkerLocalSandbox({
			files: new MemoryWorkspaceFiles({ 'src/a.ts': 'a' }),
			limits: unboundedLoops
		});
		const session = await sandbox.openShell({ cols: 80, rows: 24 });
		if (session.mode !== 'line') throw new Error('expected a line session');
		await session.run('cd src && export KEPT=yes');
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 300);
		const result = await session.run('while true; do :; done', { signal: controller.signal });
		expect(result).toMatchObject({ exitCode: 130, interrupted: true });
		let output = '';
		await session.run('pwd; echo $KEPT', { onOutput: (chunk) => (output += chunk) });
		expect(output).toBe('/workspace/src\nyes\n');
	});

	it('runs node scripts on QuickJS, its wasm loaded through Vite', async () => {
		sandbox = await createWorkerLocalSandbox({
			files: new MemoryWorkspaceFiles({ 'app.js': 'console.log([1, 2, 3].map((n) => n * 2));' }),
			nodeLimits: { timeLimitMs: 300 }
		});
		expect(crossOriginIsolated).toBe(true);
		expect(await sandbox.exec('node -e "console.log(1+1)"')).toMatchObject({
			exitCode: 0,
			output: '2\n'
		});
		expect((await sandbox.exec('node app.js')).output).toBe('[ 2, 4, 6 ]\n');
		const loop = await sandbox.exec('node -e "while(true){}"');
		expect(loop.exitCode).toBe(124);
		expect(loop.output).toMatch(/time limit/);
	});

	it('keeps what the shell wrote in IndexedDB across a re-open', async () => {
		const name = freshDatabaseName();
		const store = await IndexedDbWorkspaceFiles.open(name, {
			initialFiles: async () => ({ 'README.md': new TextEncoder().encode('# Scenario\n') })
		});
		sandbox = await createWorkerLocalSandbox({ files: store });
		await sandbox.exec('echo hello > note.txt && mkdir -p logs/empty && rm README.md');
		await sandbox.fs.writeFile('src/edit.ts', 'export const edited = true;\n');
		await sandbox.dispose();
		sandbox = undefined;
		await store.close();

		const reopened = await openStore({}, name);
		expect(reopened.restoredFrom).toBe('database');
		expect(new TextDecoder().decode(await reopened.read('note.txt'))).toBe('hello\n');
		expect(await reopened.stat('logs/empty')).toMatchObject({ kind: 'directory' });
		expect(await reopened.stat('README.md')).toBeNull();
		sandbox = await createWorkerLocalSandbox({ files: reopened });
		expect((await sandbox.exec('cat src/edit.ts note.txt')).output).toBe(
			'export const edited = true;\nhello\n'
		);
	});
});
