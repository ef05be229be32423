/// <reference lib="webworker" />
// The verify Worker's helper (start-verify-helper.ts): verifies the parts of a large ledger it
// takes, on the machine's other core, and answers with their results.
import { loadSyncContentHasher } from '../../../hooks/hashing/sync-sha256.js';
import { verifyTakenParts, type VerifyPartsJob } from '../../../hooks/ledger/verify-parts.js';
import type { VerifyHelperReply } from './start-verify-helper.js';

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = async (message: MessageEvent<VerifyPartsJob>) => {
	const post = (reply: VerifyHelperReply) => scope.postMessage(reply);
	post({ kind: 'taken' });
	try {
		post({
			kind: 'done',
			parts: await verifyTakenParts(message.data, await loadSyncContentHasher())
		});
	} catch (error) {
		post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
	}
};
