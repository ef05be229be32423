import { orchestrationZip } from '../app/lib/ledger/export-orchestration.js';
import { buildAuditLedger } from './audit-ledger.js';
import { readExportFiles, unzipEntries } from '../hooks/ledger/read-export.js';
import { gradeExport } from '../hooks/report/grade-export.js';

for (const n of [1000, 10000]) {
	const ledger = await buildAuditLedger({ events: n });
	const zip = await orchestrationZip({ events: ledger.events, activeIntentsYaml: ledger.intentsYaml, intents: ledger.intents, files: new Map() });
	for (let run = 0; run < 3; run++) {
		let t = performance.now();
		const entries = await unzipEntries(zip);
		const unzip = performance.now() - t; t = performance.now();
		const loaded = readExportFiles(entries);
		if ('error' in loaded) throw new Error(loaded.error);
		const read = performance.now() - t; t = performance.now();
		await gradeExport(loaded, { rubric: null, checkFiles: true });
		console.log(n, run, 'unzip', Math.round(unzip), 'read', Math.round(read), 'grade', Math.round(performance.now() - t), 'zipKB', Math.round(zip.length / 1024));
	}
}
