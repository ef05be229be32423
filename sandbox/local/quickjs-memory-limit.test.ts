import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createLocalSandbox } from './local-sandbox.js';
import { MemoryWorkspaceFiles } from './memory-workspace-files.js';
import { quickJsMemoryMaximumBytes } from './load-quickjs.js';

const mebibyte = 1024 * 1024;

/**
 * The memory limit must hold in the host, not only inside QuickJS: each case runs in a fresh
 * Node process (so nothing else in the test run moves its RSS) and reports the RSS growth.
 */
async function rssGrowthOf(script: string, limitBytes: number) {
	const child = fileURLToPath(new URL('./quickjs-memory-limit.fixture.ts', import.meta.url));
	const output = await new Promise<string>((resolve, reject) => {
		execFile(
			process.execPath,
			['--import', 'tsx', child, script, String(limitBytes)],
			{ maxBuffer: 1024 * 1024, timeout: 60_000 },
			(error, stdout, stderr) =>
				error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)
		);
	});
	return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as {
		exitCode: number;
		output: string;
		rssGrowthBytes: number;
	};
}

describe('the QuickJS memory limit', () => {
	const limit = 64 * mebibyte;
	const hogs = {
		'arrays of arrays': 'const a = []; for (;;) a.push(new Array(1000).fill(1));',
		'objects in a map': 'const m = new Map(); let i = 0; for (;;) m.set(i++, { i, s: "x" + i });',
		'typed arrays': 'const a = []; for (;;) a.push(new Uint8Array(1 << 20));',
		'string concatenation':
			'let s = "x"; const keep = []; for (;;) { s += s.length; keep.push(s); }'
	};

	for (const [name, script] of Object.entries(hogs)) {
		it(`stops ${name} at the limit, and the host stays under twice the limit`, async () => {
			const result = await rssGrowthOf(script, limit);
			expect(result.exitCode).toBe(134);
			expect(result.output).toContain('out of memory (limit 64 MiB)');
			expect(result.rssGrowthBytes).toBeLessThan(2 * limit);
		});
	}

	it('leaves the module usable after running out of memory, and a caught failure is the script’s', async () => {
		// 32 MiB: the runtime's preludes grew with issue 30 (node:test, streams, Intl), and at 16 MiB a
		// caught out-of-memory on a module that already ran a program left no room for the catch.
		const sandbox = await createLocalSandbox({
			files: new MemoryWorkspaceFiles({}),
			nodeLimits: { memoryLimitBytes: 32 * mebibyte, timeLimitMs: 20_000 }
		});
		const hog = await sandbox.exec(
			'node -e "const a = []; for (;;) a.push(new Array(1000).fill(1))"'
		);
		expect(hog.exitCode).toBe(134);
		expect(hog.output).toContain('out of memory (limit 32 MiB)');
		expect((await sandbox.exec('node -e "console.log(6 * 7)"')).output).toBe('42\n');
		const caught = await sandbox.exec(
			'node -e "let a = []; try { for (;;) a.push(new Array(1000).fill(1)) } catch (e) { a = null; console.log(\'caught\', e && e.message) }"'
		);
		expect(caught.exitCode).toBe(0);
		expect(caught.output).toMatch(/^caught/);
		await sandbox.dispose();
	});

	it('sizes the wasm memory as the limit plus the module overhead, in whole pages', () => {
		expect(quickJsMemoryMaximumBytes(64 * mebibyte)).toBe(80 * mebibyte);
		expect(quickJsMemoryMaximumBytes(1) % (64 * 1024)).toBe(0);
	});
});
