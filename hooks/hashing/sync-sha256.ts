import { jsSha256Hex } from './js-sha256.js';

/**
 * A synchronous SHA-256 (`sha256:<hex>`) for bulk work such as verifying 100k ledger lines: one
 * awaited Web Crypto digest per line spends more time scheduling than hashing. The plain
 * JavaScript hasher (js-sha256.ts) measured about 2× faster in Chromium than hash-wasm's
 * WebAssembly one for 100k lines of a few hundred bytes (the per-call encode and copy into wasm
 * memory dominated), and runs unchanged in a browser, a Worker and Node. The CLI passes
 * node:crypto's one-shot hash, which is faster still.
 */
export type SyncContentHasher = (data: string | Uint8Array) => string;

const hasher: SyncContentHasher = (data) => `sha256:${jsSha256Hex(data)}`;

/** The synchronous hasher (asynchronous for callers written when it had to load wasm). */
export function loadSyncContentHasher(): Promise<SyncContentHasher> {
	return Promise.resolve(hasher);
}
