import { describe, expect, it } from 'vitest';
import type { ExportFiles } from '../ledger/read-export.js';
import { gradeExport } from './grade-export.js';

function bareExport(auditJsonl: string): ExportFiles {
	const encoder = new TextEncoder();
	return {
		auditJsonl,
		traceJsonl: '',
		files: new Map(),
		links: new Map(),
		orchestration: new Map(),
		orchestrationFiles: new Map([
			['audit.jsonl', encoder.encode(auditJsonl)],
			['agent_trace.jsonl', new Uint8Array(0)]
		])
	};
}

describe('gradeExport', () => {
	it('names an unreadable audit line by its line in the file, empty lines counted', async () => {
		const audit = '{"seq":1}\n\n\r\n{"seq":2}\nnot json\n{"seq":3}\n';
		await expect(gradeExport(bareExport(audit), { checkFiles: false })).rejects.toThrow(
			'audit.jsonl line 5 is not JSON'
		);
	});
});
