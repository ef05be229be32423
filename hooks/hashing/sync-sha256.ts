import { createSHA256 } from 'hash-wasm';

/**
 * A synchronous SHA-256 (`sha256:<hex>`) for bulk work such as verifying 100k ledger lines: one
 * awaited Web Crypto digest per line spends more time scheduling than hashing. hash-wasm's
 * WebAssembly SHA-256 measured about 2× faster than a pure-JS one (@noble/hashes) here, and runs
 * unchanged in a browser, a Worker and Node. Only its setup is asynchronous (compiling the wasm).
 */
export type SyncContentHasher = (data: string | Uint8Array) => string;

let loading: Promise<SyncContentHasher> | null = null;

/** Loads the wasm hasher once per realm; later calls get the same function. */
export function loadSyncContentHasher(): Promise<SyncContentHasher> {
	loading ??= createSHA256().then((state) => (data: string | Uint8Array) => {
		state.init();
		state.update(data);
		return `sha256:${state.digest('hex')}`;
	});
	return loading;
}
