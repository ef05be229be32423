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
let loading: Promise<QuickJSWASMModule> | undefined;

export function loadQuickJs(): Promise<QuickJSWASMModule> {
	loading ??= importQuickJs().catch((error: unknown) => {
		// A failed chunk or wasm fetch (offline, deploy in between) should be retryable.
		loading = undefined;
		throw error;
	});
	return loading;
}

/** Drops the loaded module (after QuickJS aborted); the next `node` loads a fresh one. */
export function forgetQuickJs(): void {
	loading = undefined;
}

async function importQuickJs(): Promise<QuickJSWASMModule> {
	// The core plus one variant, not `quickjs-emscripten` itself: its index refers to all four
	// variants, and a build would then emit four wasm files (3.7 MB) where one is used.
	const [{ newQuickJSWASMModuleFromVariant, newVariant }, { default: releaseSync }] =
		await Promise.all([
			import('quickjs-emscripten-core'),
			import('@jitl/quickjs-wasmfile-release-sync')
		]);
	if (!isBrowserLike()) return newQuickJSWASMModuleFromVariant(releaseSync);
	const { default: wasmLocation } = await import('@jitl/quickjs-wasmfile-release-sync/wasm?url');
	return newQuickJSWASMModuleFromVariant(newVariant(releaseSync, { wasmLocation }));
}

function isBrowserLike(): boolean {
	return (
		typeof (globalThis as { document?: unknown }).document !== 'undefined' ||
		typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined'
	);
}
