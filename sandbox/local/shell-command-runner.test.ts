import { afterEach, describe, expect, it } from 'vitest';
import { committingEverything } from '../contract/committing-sandbox.js';
import type { Sandbox } from '../sandbox.js';
import { createLocalSandbox } from './local-sandbox.js';
import { MemoryWorkspaceFiles } from './memory-workspace-files.js';
import { defaultMaxCommandWriteBytes } from './shell-command-runner.js';

const kib = 1024;
const opened: Sandbox[] = [];

afterEach(async () => {
	for (const sandbox of opened.splice(0)) await sandbox.dispose();
});

async function sandboxWith(
	files: Record<string, Uint8Array | string>,
	maxCommandWriteBytes?: number
) {
	const store = new MemoryWorkspaceFiles(files);
	const sandbox = committingEverything(
		await createLocalSandbox({
			files: store,
			...(maxCommandWriteBytes !== undefined ? { maxCommandWriteBytes } : {})
		})
	);
	opened.push(sandbox);
	return { sandbox, store };
}

describe('what one command may write (maxCommandWriteBytes)', () => {
	it.each([
		{
			name: 'a loop of copies that ends with a successful echo',
			command: 'for i in $(seq 1 150); do cp big.bin copy$i.bin; done; echo done'
		},
		{
			name: 'one file overwritten in a loop',
			command: 'for i in $(seq 1 150); do cat big.bin > same.bin; echo $i >> same.bin; done; true'
		},
		{
			name: 'a node script writing many files',
			command: `node -e "const fs = require('fs'); for (let i = 0; i < 40; i++) fs.writeFileSync('n' + i + '.txt', 'x'.repeat(100000))"`
		},
		{
			name: 'tee into many files',
			command: 'for i in $(seq 1 40); do cat big.bin | tee t$i.bin > /dev/null; done; exit 0'
		}
	])(
		'stops $name and fails it, with a plain message',
		async ({ command }) => {
			const { sandbox, store } = await sandboxWith(
				{ 'big.bin': new Uint8Array(100 * kib) },
				1024 * kib
			);
			const result = await sandbox.exec(command, { timeoutMs: 20_000 });
			expect(result.exitCode).not.toBe(0);
			expect(result.output).toMatch(
				/stopped: this command wrote more than 1 MiB to the workspace, the limit for one command/
			);
			// What it wrote before the limit never exceeds the limit.
			let written = 0;
			for (const change of result.changes) written += change.after?.byteLength ?? 0;
			expect(written).toBeLessThanOrEqual(1024 * kib);
			// The limit is per command: the next one writes again.
			const next = await sandbox.exec('cp big.bin after.bin', { timeoutMs: 10_000 });
			expect(next.exitCode).toBe(0);
			expect((await store.stat('after.bin'))?.size).toBe(100 * kib);
		},
		30_000
	);

	it('lets a command that stays within the limit do its work, appends counted by what they add', async () => {
		const { sandbox, store } = await sandboxWith({}, 64 * kib);
		const result = await sandbox.exec(
			'for i in $(seq 1 800); do echo "line $i of the log" >> log.txt; done',
			{ timeoutMs: 60_000 }
		);
		expect(result.output).toBe('');
		expect(result.exitCode).toBe(0);
		expect((await store.stat('log.txt'))?.size).toBeGreaterThan(15 * kib);
	}, 70_000);

	it('is 64 MiB by default', () => {
		expect(defaultMaxCommandWriteBytes).toBe(64 * 1024 * 1024);
	});
});

describe('WebAssembly tools whose memory cannot be bounded are not offered', () => {
	it.each(['sqlite3', 'python3', 'python', 'js-exec'])(
		'%s',
		async (name) => {
			const { sandbox } = await sandboxWith({});
			const result = await sandbox.exec(
				`${name} :memory: "CREATE TABLE t(b); INSERT INTO t VALUES (randomblob(1000000));"`,
				{ timeoutMs: 20_000 }
			);
			expect(result.exitCode).toBe(127);
			expect(result.output).toMatch(/not available|command not found/);
		},
		30_000
	);

	it('says why sqlite3 is missing', async () => {
		const { sandbox } = await sandboxWith({});
		const result = await sandbox.exec('sqlite3 data.db "SELECT 1"', { timeoutMs: 20_000 });
		expect(result.output).toMatch(
			/sqlite3 is not available in the offline sandbox: its memory cannot be bounded here/
		);
		// npm scripts cannot reach it either.
		const script = await sandbox.exec('npx sqlite3 data.db "SELECT 1"', { timeoutMs: 20_000 });
		expect(script.exitCode).not.toBe(0);
	}, 30_000);
});
