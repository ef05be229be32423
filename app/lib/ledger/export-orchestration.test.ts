import { describe, expect, it } from 'vitest';
import { exportOrchestration } from '../../../hooks/ledger/export.js';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import { readExportFiles, unzipEntries } from '../../../hooks/ledger/read-export.js';
import { validateTraceRecord } from '../../../hooks/ledger/agent-trace-schema.js';
import { verifyLedger } from '../../../hooks/ledger/verify.js';
import { createTestPipeline } from '../../../hooks/pipeline/pipeline-test-kit.js';
import {
	orchestrationZip,
	orchestrationZipEntries,
	traceJsonl,
	type OrchestrationZipInput
} from './export-orchestration.js';

const decoder = new TextDecoder();
const apiKey = 'sk-test-0123456789abcdef';

/** A small governed session through the real pipeline, and what the export needs of it. */
async function runSession() {
	const session = createTestPipeline({
		files: {
			'README.md': '# Demo\n',
			'src/auth/session.ts': 'export const session = 1;\n',
			'.orchestration/AGENT.md': '# Notes\n- keep tokens short\n',
			'.orchestration/brief.md': 'The brief.\n'
		},
		commands: { 'make db': { writes: { 'src/db/pool.ts': 'export const pool = 1;\n' } } }
	});
	const { pipeline, call, fs, state, ledger } = session;
	await pipeline.recordWorkspaceSnapshot(fs.paths());
	const blocked = await call('write_to_file', {
		path: 'src/auth/jwt.ts',
		content: 'x',
		intent_id: 'INT-001',
		mutation_class: 'INTENT_EVOLUTION'
	});
	expect(!blocked.ok && blocked.error.code).toBe('intent_required');
	await call('select_active_intent', { intent_id: 'INT-001' });
	const write = await call('write_to_file', {
		path: 'src/auth/jwt.ts',
		content: 'export const sign = (payload: string) => payload;\n',
		intent_id: 'INT-001',
		mutation_class: 'INTENT_EVOLUTION'
	});
	expect(write.ok).toBe(true);
	await call('read_file', { path: 'src/auth/session.ts' });
	const edit = await call('apply_diff', {
		path: 'src/auth/session.ts',
		search: 'session = 1',
		replace: 'session = 2',
		intent_id: 'INT-001',
		mutation_class: 'AST_REFACTOR'
	});
	expect(edit.ok).toBe(true);
	const outOfScope = await call('execute_command', { command: 'make db' });
	expect(outOfScope.ok).toBe(false);
	await pipeline.recordHumanEdit({ path: 'README.md', content: '# Demo, by hand\n' });

	const files = new Map<string, Uint8Array>();
	for (const path of fs.paths()) files.set(path, await fs.readFile(path));
	const events = await ledger.events();
	const input: OrchestrationZipInput = {
		events,
		activeIntentsYaml: state.intentsYaml,
		intents: state.intents.intents,
		files
	};
	return { input, events, files };
}

async function verifyZip(zip: Uint8Array) {
	const exported = readExportFiles(unzipEntries(zip));
	if ('error' in exported) throw new Error(exported.error);
	return verifyLedger(exported);
}

describe('orchestrationZipEntries', () => {
	it('exports a governed session that verify accepts, as a zip and one folder down', async () => {
		const { input, events } = await runSession();
		const entries = orchestrationZipEntries(input);
		expect([...entries.keys()].filter((path) => path.startsWith('.orchestration/')).sort()).toEqual(
			[
				'.orchestration/AGENT.md',
				'.orchestration/active_intents.yaml',
				'.orchestration/agent_trace.jsonl',
				'.orchestration/audit.jsonl',
				'.orchestration/brief.md',
				'.orchestration/conversation.jsonl',
				'.orchestration/intent_map.md'
			]
		);
		const report = await verifyZip(await orchestrationZip(input));
		expect(report.firstFailure).toBeNull();
		expect(report.ok).toBe(true);
		expect(report.audit.events).toBe(events.length);
		expect(report.trace.records).toBe(3);
		// README.md, src/auth/session.ts, src/auth/jwt.ts; the out-of-scope src/db/pool.ts was reverted.
		expect(report.files.checked).toBe(3);

		const inFolder = await orchestrationZip({ ...input, folder: 'jwt-auth' });
		expect([...unzipEntries(inFolder).keys()].every((path) => path.startsWith('jwt-auth/'))).toBe(
			true
		);
		expect((await verifyZip(inFolder)).ok).toBe(true);
	});

	it('fails verify when a file changed after its record (the check can fail)', async () => {
		const { input, files } = await runSession();
		files.set('src/auth/jwt.ts', new TextEncoder().encode('tampered\n'));
		const report = await verifyZip(await orchestrationZip(input));
		expect(report.ok).toBe(false);
		expect(report.files.contentMismatches).toEqual(['src/auth/jwt.ts']);
	});

	it('writes the core export and the workspace AGENT.md, replacing stale generated files', async () => {
		const { input, events } = await runSession();
		const files = new Map(input.files);
		files.set('.orchestration/audit.jsonl', new TextEncoder().encode('stale\n'));
		const entries = orchestrationZipEntries({ ...input, files });
		const core = exportOrchestration({
			events,
			activeIntentsYaml: input.activeIntentsYaml,
			agentMd: '# Notes\n- keep tokens short\n',
			intents: input.intents
		});
		for (const [name, text] of core) {
			expect(decoder.decode(entries.get(`.orchestration/${name}`))).toBe(text);
		}
		expect(decoder.decode(entries.get('.orchestration/brief.md'))).toBe('The brief.\n');
		// issue 7 (verify): AGENT.md is recomputed from the ledger (as verify does), never copied.
		const given = orchestrationZipEntries({ ...input, agentMd: 'given' });
		expect(decoder.decode(given.get('.orchestration/AGENT.md'))).toBe(core.get('AGENT.md'));
	});

	it('refuses a folder that is not a single name', async () => {
		const { input } = await runSession();
		expect(() => orchestrationZipEntries({ ...input, folder: 'a/b' })).toThrow(/single folder/);
		expect(() => orchestrationZipEntries({ ...input, folder: '..' })).toThrow(/single folder/);
	});

	it('refuses to export a file or a ledger holding an API key, without repeating the key', async () => {
		const { input } = await runSession();
		const files = new Map(input.files);
		files.set('src/config.ts', new TextEncoder().encode(`export const key = '${apiKey}';\n`));
		let message = '';
		try {
			orchestrationZipEntries({ ...input, files, secrets: [apiKey] });
		} catch (error) {
			message = (error as Error).message;
		}
		expect(message).toMatch(/src\/config\.ts contains one of your API keys/);
		expect(message).not.toContain(apiKey);

		const leakedEvent = {
			...input.events[0],
			lesson: apiKey
		} as unknown as LedgerEvent;
		expect(() =>
			orchestrationZipEntries({ ...input, events: [leakedEvent], secrets: [apiKey] })
		).toThrow(/the ledger \(\.orchestration\/audit\.jsonl\) contains one of your API keys/);
		// The zip itself reads the ledger's lines as it compresses them: stopped all the same.
		await expect(
			orchestrationZip({ ...input, events: [...input.events, leakedEvent], secrets: [apiKey] })
		).rejects.toThrow(/the ledger \(\.orchestration\/audit\.jsonl\) contains one of your API keys/);
		await expect(orchestrationZip({ ...input, files, secrets: [apiKey] })).rejects.toThrow(
			/src\/config\.ts contains one of your API keys/
		);
		// Short or empty "keys" would match everything: ignored.
		expect(() => orchestrationZipEntries({ ...input, secrets: ['', 'sk'] })).not.toThrow();
	});
});

describe('traceJsonl', () => {
	it('is the export’s agent_trace.jsonl: one valid Agent Trace record per line', async () => {
		const { input, events } = await runSession();
		const text = traceJsonl(events);
		expect(text).toBe(
			decoder.decode(orchestrationZipEntries(input).get('.orchestration/agent_trace.jsonl'))
		);
		const lines = text.split('\n').filter(Boolean);
		expect(lines).toHaveLength(3);
		for (const line of lines) {
			const record = JSON.parse(line) as { related?: unknown };
			expect(validateTraceRecord(record)).toEqual({ ok: true });
		}
		expect(text.endsWith('\n')).toBe(true);
		expect(traceJsonl([])).toBe('');
	});
});
