import { open } from 'node:fs/promises';

/**
 * A file's bytes in shared memory (a SharedArrayBuffer): what verify's helper thread reads without
 * a copy (hooks/ledger/verify-parts.ts). Copying a 91 MB ledger there after reading it measured
 * 75–100 ms on this thread, time the helper waits for. Reads what the file holds when opened; a
 * file that shrinks meanwhile gives the bytes there were.
 */
export async function readFileShared(path: string): Promise<Uint8Array> {
	const handle = await open(path, 'r');
	try {
		const { size } = await handle.stat();
		const bytes = new Uint8Array(new SharedArrayBuffer(size));
		let filled = 0;
		while (filled < size) {
			const { bytesRead } = await handle.read(bytes, filled, size - filled, filled);
			if (bytesRead === 0) return bytes.slice(0, filled);
			filled += bytesRead;
		}
		return bytes;
	} finally {
		await handle.close();
	}
}
