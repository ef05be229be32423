import { randomUUID } from 'node:crypto';
import type { Clock, IdSource, Scheduler } from '../../hooks/pipeline/ports.js';
import type { LineDecoding } from '../../hooks/bytes/line-decoding.js';
import type { SyncContentHasher } from '../../hooks/hashing/sync-sha256.js';
import type { StartVerifyHelper } from '../../hooks/ledger/verify-parts.js';
import { verifyHelperThreads } from './verify-helper-thread.js';
import { nodeContentHash } from './node-content-hash.js';

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
 * What verify runs fastest with in Node: node:crypto's sha256 and Node's own TextDecoder for every
 * line (simdutf; the char-code way the browser's default takes is slower here, see
 * hooks/bytes/line-decoding.ts).
 */
export const nodeVerifyPorts = {
	hasher: nodeContentHash,
	lineDecoding: 'text-decoder',
	startHelper: verifyHelperThreads.start
} as const satisfies {
	hasher: SyncContentHasher;
	lineDecoding: LineDecoding;
	startHelper: StartVerifyHelper;
};
