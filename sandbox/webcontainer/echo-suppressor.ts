import { parentWorkspacePath } from '../workspace-path.js';

/** What one of our own fs operations is about to touch. */
export interface ExpectedEchoes {
	/** Paths whose own events are ours (e.g. parent folders a write creates). */
	exact?: readonly string[];
	/** Paths whose events, and those of everything below them, are ours (e.g. a removed folder). */
	subtree?: readonly string[];
}

/**
 * WebContainer's `fs.watch` reports every change, including the ones our own `fs` just made; the
 * `SandboxFileSystem` contract says watchers hear only about changes made by others (the shell).
 * Each operation registers the paths it touches (a per-path counter, so overlapping operations
 * on one path stack up) and releases them once it has settled plus `windowMs`, because the
 * container delivers watch events asynchronously, after the operation's promise resolves.
 *
 * The price: a shell change to the very same path inside that window is taken for an echo.
 */
export class EchoSuppressor {
	private readonly exact = new Map<string, number>();
	private readonly subtree = new Map<string, number>();
	private readonly timers = new Set<ReturnType<typeof setTimeout>>();

	constructor(private readonly windowMs: number) {
		if (!Number.isFinite(windowMs) || windowMs < 0) {
			throw new RangeError(`The echo window must be zero or more milliseconds, got ${windowMs}`);
		}
	}

	/** Registers the paths; call the returned function once the operation has settled. */
	expect(echoes: ExpectedEchoes): () => void {
		const exact = [...(echoes.exact ?? [])];
		const subtree = [...(echoes.subtree ?? [])];
		for (const path of exact) increment(this.exact, path);
		for (const path of subtree) increment(this.subtree, path);
		let released = false;
		return () => {
			if (released) return;
			released = true;
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				for (const path of exact) decrement(this.exact, path);
				for (const path of subtree) decrement(this.subtree, path);
			}, this.windowMs);
			this.timers.add(timer);
		};
	}

	/** True when an event for this (normalized) path is one of our own operations coming back. */
	isEcho(path: string): boolean {
		if (this.exact.has(path)) return true;
		let current = path;
		for (;;) {
			if (this.subtree.has(current)) return true;
			if (current === '') return false;
			current = parentWorkspacePath(current);
		}
	}

	/** Forgets everything and cancels pending releases (dispose). */
	clear(): void {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		this.exact.clear();
		this.subtree.clear();
	}
}

function increment(counts: Map<string, number>, path: string): void {
	counts.set(path, (counts.get(path) ?? 0) + 1);
}

function decrement(counts: Map<string, number>, path: string): void {
	const count = (counts.get(path) ?? 0) - 1;
	if (count > 0) counts.set(path, count);
	else counts.delete(path);
}
