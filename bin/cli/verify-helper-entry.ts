// The verify helper thread's program (verify-helper-thread.ts): verifies the parts of a large
// ledger it takes, on the machine's other core, and answers with their results.
import { parentPort } from 'node:worker_threads';
import { verifyTakenParts, type VerifyPartsJob } from '../../hooks/ledger/verify-parts.js';
import { nodeContentHash } from './node-content-hash.js';
import type { VerifyHelperReply } from './verify-helper-thread.js';

const port = parentPort;
if (!port) throw new Error('verify-helper-entry.ts runs in a worker thread');
port.once('message', async (job: VerifyPartsJob) => {
	const post = (reply: VerifyHelperReply) => port.postMessage(reply);
	try {
		post({ kind: 'done', parts: await verifyTakenParts(job, nodeContentHash) });
	} catch (error) {
		post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
	}
});
