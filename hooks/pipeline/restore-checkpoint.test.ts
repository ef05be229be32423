import { describe, expect, it } from 'vitest';
import { contentHash } from '../hashing/sha256.js';
import { derivedOrchestrationFiles, exportOrchestration } from '../ledger/export.js';
import type { LedgerEvent } from '../ledger/ledger-event.js';
import { readExportFiles } from '../ledger/read-export.js';
import { sessionChanges } from '../ledger/file-states.js';
import { verifyLedger } from '../ledger/verify.js';
import { createTestPipeline } from './pipeline-test-kit.js';
import { restoreCheckpoint, restoreTool } from './restore-checkpoint.js';

const encoder = new TextEncoder();

/** A governed session: the agent writes and edits, the person edits and deletes, a command makes a folder. */
async function governedSession() {
	const session = createTestPipeline({
		files: {
			'README.md': '# Demo\n',
			'src/auth/session.ts': 'export const session = 1;\n',
			'notes/todo.md': 'todo\n'
		},
		commands: { 'make auth': { writes: { 'src/auth/made.ts': 'made\n' } } }
	});
	const { pipeline, call, fs } = session;
	await pipeline.recordWorkspaceSnapshot(fs.paths());
	await call('select_active_intent', { intent_id: 'INT-001' });
	const written = await call('write_to_file', {
		path: 'src/auth/jwt.ts',
		content: 'export const sign = 1;\n',
		intent_id: 'INT-001',
		mutation_class: 'INTENT_EVOLUTION'
	});
	expect(written.ok).toBe(true);
	const checkpoint = (await session.ledger.events()).at(-1)?.seq ?? 0;
	await call('read_file', { path: 'src/auth/session.ts' });
	expect(
		(
			await call('apply_diff', {
				path: 'src/auth/session.ts',
				search: 'session = 1',
				replace: 'session = 2',
				intent_id: 'INT-001',
				mutation_class: 'AST_REFACTOR'
			})
		).ok
	).toBe(true);
	expect((await call('execute_command', { command: 'make auth' })).ok).toBe(true);
	await pipeline.recordHumanEdit({ path: 'README.md', content: '# Demo, by hand\n' });
	await pipeline.recordHumanEdit({ path: 'notes/todo.md', content: null });
	await call('read_file', { path: 'src/auth/jwt.ts' });
	await call('delete_file', { path: 'src/auth/jwt.ts', intent_id: 'INT-001' });
	return { ...session, checkpoint };
}

/** Every content the session wrote, by hash (the browser's ledger keeps these as blobs). */
async function contentStore(events: readonly LedgerEvent[], initial: Record<string, string>) {
	const store = new Map<string, Uint8Array>();
	for (const text of [
		...Object.values(initial),
		'export const sign = 1;\n',
		'export const session = 2;\n',
		'made\n',
		'# Demo, by hand\n'
	])
		store.set(await contentHash(text), encoder.encode(text));
	expect(events.length).toBeGreaterThan(0);
	return async (hash: string) => store.get(hash) ?? null;
}

async function exportAndVerify(session: Awaited<ReturnType<typeof governedSession>>) {
	const events = await session.ledger.events();
	const generated = exportOrchestration({
		events,
		activeIntentsYaml: session.state.intentsYaml,
		agentMd: ''
	});
	const entries = new Map<string, Uint8Array>();
	for (const path of session.fs.paths()) {
		const name = path.startsWith('.orchestration/') ? path.slice('.orchestration/'.length) : null;
		if (name && (derivedOrchestrationFiles as readonly string[]).includes(name)) continue;
		entries.set(path, await session.fs.readFile(path));
	}
	for (const [name, text] of generated) entries.set(`.orchestration/${name}`, encoder.encode(text));
	const exported = readExportFiles(entries);
	if ('error' in exported) throw new Error(exported.error);
	return verifyLedger(exported);
}

describe('restoreCheckpoint', () => {
	it('puts the files back as they were after the event, as recorded human changes, and the export still verifies', async () => {
		const session = await governedSession();
		const events = await session.ledger.events();
		const result = await restoreCheckpoint({
			events,
			seq: session.checkpoint,
			content: await contentStore(events, {
				readme: '# Demo\n',
				session: 'export const session = 1;\n',
				todo: 'todo\n'
			}),
			pipeline: session.pipeline
		});
		expect(result.ok).toBe(true);
		const text = (path: string) => session.fs.readTextFile(path);
		expect(await text('README.md')).toBe('# Demo\n');
		expect(await text('src/auth/session.ts')).toBe('export const session = 1;\n');
		expect(await text('src/auth/jwt.ts')).toBe('export const sign = 1;\n');
		expect(await text('notes/todo.md')).toBe('todo\n');
		expect(await session.fs.stat('src/auth/made.ts')).toBeNull();
		if (!result.ok) return;
		const records = result.events.filter((event) => event.type === 'mutation-record');
		expect(records).toHaveLength(5);
		for (const record of records) {
			if (record.type !== 'mutation-record') continue;
			expect(record.trace.files[0]?.conversations[0]?.contributor.type).toBe('human');
			expect(record.trace.metadata['dev.threadline'].tool).toBe(restoreTool);
		}
		const report = await exportAndVerify(session);
		expect(report.firstFailure).toBeNull();
		expect(report.ok).toBe(true);
		// Back at the checkpoint: the only net change of the session is the agent's new file.
		const changes = sessionChanges(await session.ledger.events());
		expect(changes.files.map((change) => [change.path, change.status])).toEqual([
			['src/auth/jwt.ts', 'new']
		]);
	});

	it('restoring to the starting snapshot undoes everything; restoring to now changes nothing', async () => {
		const session = await governedSession();
		const events = await session.ledger.events();
		const content = await contentStore(events, {
			readme: '# Demo\n',
			session: 'export const session = 1;\n',
			todo: 'todo\n'
		});
		const last = events.at(-1)?.seq ?? 0;
		const unchanged = await restoreCheckpoint({
			events,
			seq: last,
			content,
			pipeline: session.pipeline
		});
		expect(unchanged.ok && unchanged.events).toEqual([]);
		const start = await restoreCheckpoint({ events, seq: 1, content, pipeline: session.pipeline });
		expect(start.ok).toBe(true);
		expect(sessionChanges(await session.ledger.events()).files).toEqual([]);
		expect((await exportAndVerify(session)).ok).toBe(true);
	});

	it('changes nothing when a content was not kept or does not match its hash', async () => {
		const session = await governedSession();
		const events = await session.ledger.events();
		const before = events.length;
		const kept = await contentStore(events, {
			readme: '# Demo\n',
			session: 'export const session = 1;\n',
			todo: 'todo\n'
		});
		const missing = await restoreCheckpoint({
			events,
			seq: session.checkpoint,
			content: async (hash) => (hash === (await contentHash('todo\n')) ? null : kept(hash)),
			pipeline: session.pipeline
		});
		expect(missing).toMatchObject({ ok: false, reason: expect.stringContaining('notes/todo.md') });
		const forged = await restoreCheckpoint({
			events,
			seq: session.checkpoint,
			content: async () => encoder.encode('forged\n'),
			pipeline: session.pipeline
		});
		expect(forged.ok).toBe(false);
		expect((await session.ledger.events()).length).toBe(before);
		expect(await session.fs.readTextFile('README.md')).toBe('# Demo, by hand\n');
	});

	it('refuses a checkpoint before the starting snapshot or not in the ledger', async () => {
		const session = await governedSession();
		const events = await session.ledger.events();
		const content = async () => null;
		expect(
			(await restoreCheckpoint({ events, seq: 999, content, pipeline: session.pipeline })).ok
		).toBe(false);
		expect(
			(
				await restoreCheckpoint({
					events: events.slice(1),
					seq: 2,
					content,
					pipeline: session.pipeline
				})
			).ok
		).toBe(false);
	});
});

describe('recordHumanChanges', () => {
	it('refuses governance paths before writing anything', async () => {
		const session = createTestPipeline({ files: { 'a.txt': 'a\n' } });
		await expect(
			session.pipeline.recordHumanChanges({
				files: [
					{ path: 'a.txt', content: encoder.encode('b\n') },
					{ path: '.ORCHESTRATION/audit.jsonl', content: encoder.encode('x') }
				],
				tool: restoreTool
			})
		).rejects.toThrow(/governance/);
		expect(await session.fs.readTextFile('a.txt')).toBe('a\n');
		expect(await session.ledger.events()).toEqual([]);
	});

	it('records folders it makes and removes the ones left empty, as human folder changes', async () => {
		const session = createTestPipeline({ files: { 'keep/a.txt': 'a\n', 'gone/b.txt': 'b\n' } });
		await session.fs.mkdir('gone');
		await session.fs.mkdir('gone/empty');
		const events = await session.pipeline.recordHumanChanges({
			files: [{ path: 'gone/b.txt', content: null }],
			createFolders: ['made'],
			removeFolders: ['gone/empty', 'gone', 'keep'],
			tool: restoreTool
		});
		expect(
			events.flatMap((event) =>
				event.type === 'folder-change' ? [[event.path, event.change, event.contributor]] : []
			)
		).toEqual([
			['made', 'created', 'human'],
			['gone/empty', 'deleted', 'human'],
			['gone', 'deleted', 'human']
		]);
		expect((await session.fs.stat('made'))?.kind).toBe('directory');
		expect(await session.fs.stat('gone')).toBeNull();
		expect((await session.fs.stat('keep'))?.kind).toBe('directory');
	});
});
