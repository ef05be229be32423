import * as nodeCrypto from 'node:crypto';
import { createHash, randomUUID } from 'node:crypto';
import type { Clock, IdSource, Scheduler } from '../../hooks/pipeline/ports.js';
import type { LineDecoding } from '../../hooks/bytes/line-decoding.js';
import type { SyncContentHasher } from '../../hooks/hashing/sync-sha256.js';

export const systemClock: Clock = {
	nowIso: () => new Date().toISOString(),
	nowMs: () => performance.now()
};

export const timerScheduler: Scheduler = {
	delay(ms, signal) {
		return new Promise((resolve, reject) => {
			if (signal?.aborted) return reject(new Error('aborted'));
			const timer = setTimeout(resolve, ms);
			signal?.addEventListener('abort', () => {
				clearTimeout(timer);
				reject(new Error('aborted'));
			});
		});
	}
};

export const randomIds: IdSource = { uuid: () => randomUUID() };

/**
 * Node's one-shot `crypto.hash` (Node ≥ 20.12): no Hash object per line, measured 2.4× faster
 * than createHash().update().digest() for 130k lines of 700 bytes. Older Nodes get createHash.
 */
const oneShotHash = (
	nodeCrypto as { hash?: (algorithm: string, data: string | Uint8Array) => string }
).hash;

/** Node's synchronous sha256: several times faster than Web Crypto for 100k small ledger lines. */
export function nodeContentHash(data: string | Uint8Array): string {
	if (oneShotHash) return `sha256:${oneShotHash('sha256', data)}`;
	return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

/**
 * What verify runs fastest with in Node: node:crypto's sha256 and Node's own TextDecoder for every
 * line (simdutf; the char-code way the browser's default takes is slower here, see
 * hooks/bytes/line-decoding.ts).
 */
export const nodeVerifyPorts = {
	hasher: nodeContentHash,
	lineDecoding: 'text-decoder'
} as const satisfies { hasher: SyncContentHasher; lineDecoding: LineDecoding };
