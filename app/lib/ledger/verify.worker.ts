/// <reference lib="webworker" />
// The verify Worker: the same verifyLedger as `threadline verify`, off the page's thread, with
// progress. A Cancel terminates the Worker, so nothing here needs to look for one.
import { exportOrchestration } from '../../../hooks/ledger/export.js';
import { countLines, countLinesOfBytes } from '../../../hooks/ledger/read-jsonl.js';
import { verifyLedger } from '../../../hooks/ledger/verify.js';
import { exportVerifyInput } from './export-orchestration.js';
import { readStoredEvents } from './read-stored-events.js';
import { startVerifyHelperWorker } from './start-verify-helper.js';
import type { VerifyRequest, VerifyResponse } from './verify-messages.js';

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = async (message: MessageEvent<VerifyRequest>) => {
	const request = message.data;
	const post = (response: VerifyResponse) => scope.postMessage(response);
	try {
		let auditJsonl: string | Uint8Array;
		let traceJsonl: string | Uint8Array;
		let total: number;
		if (request.kind === 'events' && request.files) {
			// Exactly what "Export .orchestration" would write, `.orchestration/` included.
			const input = exportVerifyInput({
				events: request.events,
				activeIntentsYaml: request.activeIntentsYaml,
				intents: request.intents,
				files: request.files
			});
			const total = countLinesOfBytes(
				input.orchestrationFiles?.get('audit.jsonl') ?? new Uint8Array(0)
			);
			post({ kind: 'progress', checked: 0, total });
			const report = await verifyLedger({
				...input,
				onProgress: (checked) => post({ kind: 'progress', checked, total }),
				startHelper: startVerifyHelperWorker
			});
			post({ kind: 'done', report });
			return;
		}
		if (request.kind === 'jsonl') {
			// Whole, so a large ledger can be verified in parts on two cores (startHelper below).
			auditJsonl = request.audit;
			traceJsonl = request.trace;
			total = countLinesOfBytes(request.audit);
		} else {
			// No workspace given: the two chains and the records only (the report says so).
			const events = request.kind === 'events' ? request.events : await readStoredEvents(request);
			const exported = exportOrchestration({
				events,
				activeIntentsYaml: request.kind === 'events' ? request.activeIntentsYaml : '',
				agentMd: '',
				intents: request.kind === 'events' ? request.intents : []
			});
			auditJsonl = exported.get('audit.jsonl') ?? '';
			traceJsonl = exported.get('agent_trace.jsonl') ?? '';
			total = countLines(auditJsonl);
		}
		post({ kind: 'progress', checked: 0, total });
		const report = await verifyLedger({
			auditJsonl,
			traceJsonl,
			onProgress: (checked) => post({ kind: 'progress', checked, total }),
			startHelper: startVerifyHelperWorker
		});
		post({ kind: 'done', report });
	} catch (error) {
		post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
	}
};
