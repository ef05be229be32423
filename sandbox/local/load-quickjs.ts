import type { QuickJSWASMModule } from 'quickjs-emscripten-core';

/**
 * QuickJS (~500 KB of wasm, 240 KB gzip) is loaded on the first `node` command, never at import
 * time. Both packages come with quickjs-emscripten 0.32 (same versions as just-bash uses).
 *
 * The release-sync variant finds its wasm next to its own module through
 * `new URL('emscripten-module.wasm', import.meta.url)`. Node resolves that to the file in
 * node_modules; in a page or Worker bundled by Vite, the dependency optimizer moves the module
 * (and the build renames the wasm), so there the wasm's URL comes from Vite itself (`?url`): an
 * asset served by our own origin, which COEP `require-corp` allows.
 */
const loading = new Map<number, Promise<QuickJSWASMModule>>();

/**
 * Room the module needs besides the scripts' own heap: emscripten's static data and C stack
 * (the build's initial memory is 16 MiB) and the runtime's own structures.
 */
export const quickJsMemoryOverheadBytes = 16 * 1024 * 1024;
const wasmPageBytes = 64 * 1024;

/**
 * The module for scripts limited to `memoryLimitBytes` of heap. QuickJS's own limit
 * (`setMemoryLimit`) cannot hold in this build: without `malloc_usable_size` it counts 8 bytes per
 * allocation whatever its size, so a loop of arrays took the host to 2.1 GB (the wasm maximum)
 * before QuickJS noticed. The hard limit is therefore the WebAssembly memory itself: we hand
 * emscripten a Memory whose `maximum` is the limit plus the module's overhead, so malloc returns
 * NULL there and QuickJS throws its out-of-memory error; the host never holds more. One module
 * per limit (a module's memory never shrinks, and only one script runs at a time).
 */
export function loadQuickJs(
	memoryLimitBytes: number = 64 * 1024 * 1024
): Promise<QuickJSWASMModule> {
	let module = loading.get(memoryLimitBytes);
	if (!module) {
		module = importQuickJs(memoryLimitBytes).catch((error: unknown) => {
			// A failed chunk or wasm fetch (offline, deploy in between) should be retryable.
			loading.delete(memoryLimitBytes);
			throw error;
		});
		loading.set(memoryLimitBytes, module);
	}
	return module;
}

/** Drops the loaded modules (after QuickJS aborted); the next `node` loads a fresh one. */
export function forgetQuickJs(): void {
	loading.clear();
}

/** The wasm memory's hard maximum for a heap limit, in bytes (a whole number of pages). */
export function quickJsMemoryMaximumBytes(memoryLimitBytes: number): number {
	return Math.ceil((memoryLimitBytes + quickJsMemoryOverheadBytes) / wasmPageBytes) * wasmPageBytes;
}

interface GrowthRecord {
	/** True while the latest attempt to grow the memory failed (malloc then returns NULL). */
	lastGrowFailed: boolean;
}

const growthRecords = new WeakMap<object, GrowthRecord>();

function boundedMemory(memoryLimitBytes: number): {
	memory: WebAssembly.Memory;
	growth: GrowthRecord;
} {
	const maximum = quickJsMemoryMaximumBytes(memoryLimitBytes) / wasmPageBytes;
	const memory = new WebAssembly.Memory({ initial: Math.min(256, maximum), maximum });
	const growth: GrowthRecord = { lastGrowFailed: false };
	const grow = memory.grow.bind(memory);
	// emscripten grows the heap through this object; a refusal is how we learn that a script
	// hit the limit (QuickJS may only throw null then, having no memory left for an error).
	memory.grow = (delta: number) => {
		try {
			const previous = grow(delta);
			growth.lastGrowFailed = false;
			return previous;
		} catch (error) {
			growth.lastGrowFailed = true;
			throw error;
		}
	};
	return { memory, growth };
}

/**
 * True when the module's memory could not grow the last time it tried: a script failing now
 * failed for want of memory. `reset` starts a new script's account.
 */
export function quickJsMemoryExhausted(module: QuickJSWASMModule, reset = false): boolean {
	const record = growthRecords.get(module);
	if (!record) return false;
	const exhausted = record.lastGrowFailed;
	if (reset) record.lastGrowFailed = false;
	return exhausted;
}

async function importQuickJs(memoryLimitBytes: number): Promise<QuickJSWASMModule> {
	// The core plus one variant, not `quickjs-emscripten` itself: its index refers to all four
	// variants, and a build would then emit four wasm files (3.7 MB) where one is used.
	const [{ newQuickJSWASMModuleFromVariant, newVariant }, { default: releaseSync }] =
		await Promise.all([
			import('quickjs-emscripten-core'),
			import('@jitl/quickjs-wasmfile-release-sync')
		]);
	const { memory: wasmMemory, growth } = boundedMemory(memoryLimitBytes);
	const wasmLocation = isBrowserLike()
		? (await import('@jitl/quickjs-wasmfile-release-sync/wasm?url')).default
		: undefined;
	const module = await newQuickJSWASMModuleFromVariant(
		newVariant(releaseSync, { wasmMemory, ...(wasmLocation ? { wasmLocation } : {}) })
	);
	growthRecords.set(module, growth);
	return module;
}

function isBrowserLike(): boolean {
	return (
		typeof (globalThis as { document?: unknown }).document !== 'undefined' ||
		typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined'
	);
}
