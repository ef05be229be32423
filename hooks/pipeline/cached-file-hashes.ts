import { contentHash } from '../hashing/sha256.js';
import type { SandboxFileSystem } from '../tools/sandbox-ports.js';
import type { FileHashLookup } from './hook-types.js';

/**
 * Content hashes of workspace files, computed once and dropped when the file changes, so the
 * stale-file check does not re-hash a file on every call.
 */
export class CachedFileHashes implements FileHashLookup {
	private readonly cache = new Map<string, Promise<string | null>>();
	private readonly stopWatching: () => void;

	constructor(private readonly fs: SandboxFileSystem) {
		this.stopWatching = fs.watch((event) => this.invalidate(event.path));
	}

	hashOf(path: string): Promise<string | null> {
		let hash = this.cache.get(path);
		if (!hash) {
			hash = this.compute(path);
			this.cache.set(path, hash);
			// A failed read must not stay cached.
			hash.catch(() => this.cache.delete(path));
		}
		return hash;
	}

	invalidate(path: string): void {
		this.cache.delete(path);
	}

	dispose(): void {
		this.stopWatching();
		this.cache.clear();
	}

	private async compute(path: string): Promise<string | null> {
		let stat;
		try {
			stat = await this.fs.stat(path);
		} catch (error) {
			// A path the filesystem refuses (a link on it, a parent that is a file) has no content to
			// be stale about; the call itself is refused with the filesystem's reason when it runs.
			if (typeof (error as { code?: unknown } | null)?.code === 'string') return null;
			throw error;
		}
		if (!stat || stat.kind !== 'file') return null;
		return contentHash(await this.fs.readFile(path));
	}
}
