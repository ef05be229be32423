import { describe, expect, it } from 'vitest';
import { unzipEntries, zipEntries } from '../../../hooks/ledger/read-export.js';
import { createTestPipeline } from '../../../hooks/pipeline/pipeline-test-kit.js';
import { orchestrationZip } from '../ledger/export-orchestration.js';
import { describeImport } from './imported-export-record.js';
import { readImport } from './imported-export.js';
import { zipWorkspace } from './workspace-zip.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function exportedZip(): Promise<Uint8Array> {
	const { pipeline, call, fs, state, ledger } = createTestPipeline({
		files: { 'README.md': '# Demo\n', 'src/auth/session.ts': 'export const session = 1;\n' }
	});
	await pipeline.recordWorkspaceSnapshot(fs.paths());
	await call('select_active_intent', { intent_id: 'INT-001' });
	const write = await call('write_to_file', {
		path: 'src/auth/jwt.ts',
		content: 'export const sign = 1;\n',
		intent_id: 'INT-001',
		mutation_class: 'INTENT_EVOLUTION'
	});
	expect(write.ok).toBe(true);
	const files = new Map<string, Uint8Array>();
	for (const path of fs.paths()) files.set(path, await fs.readFile(path));
	return orchestrationZip({
		events: await ledger.events(),
		activeIntentsYaml: state.intentsYaml,
		intents: state.intents.intents,
		files,
		folder: 'jwt-auth'
	});
}

function edited(zip: Uint8Array, path: string, change: (text: string) => string): Uint8Array {
	const entries = unzipEntries(zip);
	const bytes = entries.get(path);
	if (!bytes) throw new Error(`no ${path} in the zip`);
	entries.set(path, encoder.encode(change(decoder.decode(bytes))));
	return zipEntries(entries);
}

describe('readImport', () => {
	it('brings an export’s ledger with it, verified, and the workspace files without derived ones', async () => {
		const imported = await readImport(await exportedZip());
		expect(imported.kind).toBe('export');
		if (imported.kind !== 'export') return;
		expect(imported.report.ok).toBe(true);
		expect(imported.events.map((event) => event.seq)).toEqual(
			imported.events.map((_, index) => index + 1)
		);
		expect(imported.events.some((event) => event.type === 'mutation-record')).toBe(true);
		expect(Object.keys(imported.files)).toEqual(
			expect.arrayContaining(['README.md', 'src/auth/jwt.ts', '.orchestration/active_intents.yaml'])
		);
		expect(Object.keys(imported.files)).not.toContain('.orchestration/audit.jsonl');
		expect(Object.keys(imported.files)).not.toContain('.orchestration/agent_trace.jsonl');
		expect(describeImport({ name: 'a.zip', ok: true, report: imported.report })).toMatch(
			/verified/
		);
	});

	it('reports a file changed after its record as a failed verification, like the CLI', async () => {
		const zip = edited(
			await exportedZip(),
			'jwt-auth/src/auth/jwt.ts',
			(text) => `${text}// forged\n`
		);
		const imported = await readImport(zip);
		expect(imported.kind).toBe('export');
		if (imported.kind !== 'export') return;
		expect(imported.report.ok).toBe(false);
		expect(imported.report.firstFailure).toMatch(/src\/auth\/jwt\.ts/);
		expect(describeImport({ name: 't.zip', ok: false, report: imported.report })).toMatch(
			/failed verification.*read-only/
		);
	});

	it('reports an edited audit event as a broken chain and keeps the events verbatim', async () => {
		const zip = edited(await exportedZip(), 'jwt-auth/.orchestration/audit.jsonl', (text) =>
			text.replace('"INT-001"', '"INT-002"')
		);
		const imported = await readImport(zip);
		if (imported.kind !== 'export') throw new Error('not read as an export');
		expect(imported.report.ok).toBe(false);
		expect(imported.report.audit.intact).toBe(false);
		expect(JSON.stringify(imported.events)).toContain('INT-002');
	});

	it('reads a zip without a ledger as plain files', async () => {
		const zip = zipWorkspace([['src/a.ts', encoder.encode('a')]], 'jwt-auth');
		const imported = await readImport(zip);
		expect(imported).toEqual({
			kind: 'plain',
			files: { 'src/a.ts': encoder.encode('a') },
			skipped: []
		});
	});
});
