import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SandboxFileSystemError } from '../sandbox-file-system-error.js';
import { MemoryWorkspaceFiles } from './memory-workspace-files.js';
import { OverlayWorkspaceFiles } from './overlay-workspace-files.js';

const kib = 1024;

function bytes(length: number, fill = 1): Uint8Array {
	return new Uint8Array(length).fill(fill);
}

/** The bytes a command holds in its view: every file the layer has, written or copied. */
async function heldBytes(overlay: OverlayWorkspaceFiles): Promise<number> {
	let total = 0;
	for (const change of await overlay.proposal())
		if (change.after.kind === 'file') total += change.after.data.byteLength;
	return total;
}

describe('OverlayWorkspaceFiles: what one command may write', () => {
	type Step = (overlay: OverlayWorkspaceFiles) => Promise<void>;
	const write =
		(path: string, length: number, fill = 1): Step =>
		(overlay) =>
			overlay.write(path, bytes(length, fill));
	const append =
		(path: string, length: number): Step =>
		async (overlay) => {
			const before = (await overlay.stat(path)) ? await overlay.read(path) : new Uint8Array();
			const after = new Uint8Array(before.byteLength + length);
			after.set(before);
			after.fill(7, before.byteLength);
			await overlay.write(path, after);
		};
	const copy =
		(from: string, to: string): Step =>
		async (overlay) =>
			overlay.write(to, await overlay.read(from));
	const repeat = (times: number, step: (index: number) => Step): Step[] =>
		Array.from({ length: times }, (_, index) => step(index));

	it.each<{ name: string; steps: Step[]; limit: number; passes: boolean; counted?: number }>([
		{
			name: 'copies of a big file under new names (the 150 × 9 MB case)',
			steps: repeat(150, (index) => copy('big.bin', `copy${index}.bin`)),
			limit: 256 * kib,
			passes: false
		},
		{
			name: 'overwriting one file again and again counts every time',
			steps: repeat(40, (index) => write('same.bin', 10 * kib, index + 2)),
			limit: 256 * kib,
			passes: false
		},
		{
			name: 'appends count what they add (a log of 1,000 lines)',
			steps: repeat(1_000, () => append('log.txt', 20)),
			limit: 64 * kib,
			passes: true,
			counted: 20_000
		},
		{
			name: 'a write of exactly the limit passes',
			steps: [write('a.bin', 100 * kib)],
			limit: 100 * kib,
			passes: true,
			counted: 100 * kib
		},
		{
			name: 'one byte more does not',
			steps: [write('a.bin', 100 * kib), write('b.txt', 1)],
			limit: 100 * kib,
			passes: false
		},
		{
			name: 'an overwrite that only starts like the old content counts whole',
			steps: [write('a.bin', 60 * kib), write('a.bin', 61 * kib, 2)],
			limit: 100 * kib,
			passes: false
		},
		{
			name: 'moving a big file back and forth counts each move',
			steps: repeat(10, (index) => async (overlay) => {
				const [from, to] = index % 2 === 0 ? ['big.bin', 'moved.bin'] : ['moved.bin', 'big.bin'];
				await overlay.write(to, await overlay.read(from));
				await overlay.delete(from);
			}),
			limit: 256 * kib,
			passes: false
		}
	])('$name', async ({ steps, limit, passes, counted }) => {
		const base = new MemoryWorkspaceFiles({ 'big.bin': bytes(90 * kib) });
		let told: string | undefined;
		const overlay = new OverlayWorkspaceFiles(base, Date.now, {
			maxBytes: limit,
			onExceeded: (message) => (told = message)
		});
		let refused: unknown;
		for (const step of steps) {
			try {
				await step(overlay);
			} catch (error) {
				refused = error;
				break;
			}
		}
		if (passes) {
			expect(refused).toBeUndefined();
			expect(overlay.limitExceeded).toBeUndefined();
			if (counted !== undefined) expect(overlay.bytesWritten).toBe(counted);
			return;
		}
		expect(refused).toBeInstanceOf(SandboxFileSystemError);
		expect((refused as SandboxFileSystemError).code).toBe('EDQUOT');
		expect((refused as Error).message).toMatch(
			/this command wrote more than .* to the workspace, the limit for one command/
		);
		expect(told).toBe(overlay.limitExceeded);
		// Once past, every later write fails too, even a small one; reads and deletes still work.
		await expect(overlay.write('late.txt', bytes(1))).rejects.toMatchObject({ code: 'EDQUOT' });
		expect(await heldBytes(overlay)).toBeLessThanOrEqual(limit);
		// The base never sees any of it.
		expect((await base.list('')).map((entry) => entry.name)).toEqual(['big.bin']);
	});

	it('never holds more than its limit, whatever a command writes (property)', async () => {
		const operation = fc.oneof(
			fc.record({
				kind: fc.constant('write' as const),
				name: fc.constantFrom('a', 'b', 'c', 'd'),
				length: fc.integer({ min: 0, max: 40 * kib })
			}),
			fc.record({
				kind: fc.constant('append' as const),
				name: fc.constantFrom('a', 'b', 'c', 'd'),
				length: fc.integer({ min: 0, max: 8 * kib })
			}),
			fc.record({ kind: fc.constant('copy' as const), name: fc.constantFrom('a', 'b', 'c', 'd') }),
			fc.record({ kind: fc.constant('delete' as const), name: fc.constantFrom('a', 'b', 'c', 'd') })
		);
		await fc.assert(
			fc.asyncProperty(
				fc.array(operation, { maxLength: 40 }),
				fc.integer({ min: 1, max: 128 * kib }),
				async (operations, limit) => {
					const base = new MemoryWorkspaceFiles({ a: bytes(16 * kib) });
					const overlay = new OverlayWorkspaceFiles(base, Date.now, { maxBytes: limit });
					let copies = 0;
					for (const step of operations) {
						const path = step.name;
						const exists = (await overlay.stat(path))?.kind === 'file';
						try {
							if (step.kind === 'write') await overlay.write(path, bytes(step.length, 3));
							else if (step.kind === 'append') {
								const before = exists ? await overlay.read(path) : new Uint8Array();
								const after = new Uint8Array(before.byteLength + step.length);
								after.set(before);
								await overlay.write(path, after);
							} else if (step.kind === 'copy' && exists)
								await overlay.write(`copy-${copies++}`, await overlay.read(path));
							else if (step.kind === 'delete' && exists) await overlay.delete(path);
						} catch (error) {
							expect((error as SandboxFileSystemError).code).toBe('EDQUOT');
						}
						expect(overlay.bytesWritten).toBeLessThanOrEqual(limit);
						expect(await heldBytes(overlay)).toBeLessThanOrEqual(limit);
					}
				}
			),
			{ numRuns: 150 }
		);
	});

	it('has no limit unless it is given one (the dry run of a commit)', async () => {
		const overlay = new OverlayWorkspaceFiles(new MemoryWorkspaceFiles());
		for (let index = 0; index < 20; index++) await overlay.write(`f${index}`, bytes(64 * kib));
		expect(overlay.limitExceeded).toBeUndefined();
	});
});
