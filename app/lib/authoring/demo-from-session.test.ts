import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../../bin/cli/main.js';
import { captureOutput } from '../../../bin/cli/capture-output.js';
import { contentHash } from '../../../hooks/hashing/sha256.js';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import { parseReplayScript } from '../../../hooks/replay/replay-script.js';
import { demoFromSession, type RecordedToolCall } from './demo-from-session.js';

const fixtures = join(import.meta.dirname, '../../../bin/fixtures');
let folder: string;

beforeEach(async () => {
	folder = await mkdtemp(join(tmpdir(), 'threadline-demo-'));
});
afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

async function replay(script: string, workspace: string) {
	const streams = captureOutput();
	const code = await main(['replay', script, '--workspace', workspace], streams.output);
	return { code, out: streams.out, err: streams.err };
}

describe('Save as demo', () => {
	it('turns a recorded session into a demo.yaml that threadline replay re-runs green', async () => {
		// A session: the TRP1 demo, run once, leaves its ledger in the workspace.
		const original = join(folder, 'original');
		await cp(join(fixtures, 'trp1-workspace'), original, { recursive: true });
		const scriptText = await readFile(join(fixtures, 'trp1-demo.yaml'), 'utf8');
		const first = await replay(join(fixtures, 'trp1-demo.yaml'), original);
		expect(first.code).toBe(0);
		const events = (await readFile(join(original, '.orchestration/audit.jsonl'), 'utf8'))
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as LedgerEvent);

		// What the app has besides the ledger: the conversation's full inputs, the content blobs.
		const parsed = parseReplayScript(scriptText);
		if (!parsed.ok) throw new Error('fixture script');
		const calls: RecordedToolCall[] = [];
		const blobs = new Map<string, Uint8Array>();
		for (const event of events) {
			if (event.type !== 'tool-call-start') continue;
			const stepNumber = Number(/^step-(\d+)-/.exec(event.tool_call_id)?.[1]);
			const step = parsed.script.steps[stepNumber - 1];
			if (step && 'call' in step)
				calls.push({ toolCallId: event.tool_call_id, tool: step.call, input: step.input });
		}
		for (const step of parsed.script.steps) {
			if ('human_edit' in step && step.human_edit.content !== null)
				blobs.set(
					await contentHash(step.human_edit.content),
					new TextEncoder().encode(step.human_edit.content)
				);
		}
		const demo = await demoFromSession({
			events,
			calls,
			blob: async (hash) => blobs.get(hash) ?? null,
			model: 'openai/gpt-test'
		});
		expect(demo.skipped).toEqual([]);
		expect(demo.yaml).toContain('human_edit');
		expect(demo.yaml).toContain('expect: scope_violation');
		const saved = parseReplayScript(demo.yaml);
		expect(saved.ok).toBe(true);

		const fresh = join(folder, 'fresh');
		await cp(join(fixtures, 'trp1-workspace'), fresh, { recursive: true });
		const demoPath = join(folder, 'demo.yaml');
		await writeFile(demoPath, demo.yaml);
		const again = await replay(demoPath, fresh);
		expect(again.err.filter((line) => line.startsWith('step '))).toEqual([]);
		expect(again.code).toBe(0);
	}, 120_000);

	it('leaves out a call whose full input is unknown instead of guessing', async () => {
		const demo = await demoFromSession({
			events: [
				{
					type: 'tool-call-start',
					session_id: 'agent',
					tool: 'write_to_file',
					tool_call_id: 'c1',
					input: { path: 'a.ts', content: 'x… (900 characters)' },
					seq: 1,
					timestamp: '2026-11-21T12:00:00.000Z',
					prev_hash: 'sha256:0',
					hash: 'sha256:1'
				},
				{
					type: 'tool-call-finish',
					session_id: 'agent',
					tool: 'write_to_file',
					tool_call_id: 'c1',
					ok: true,
					seq: 2,
					timestamp: '2026-11-21T12:00:00.000Z',
					prev_hash: 'sha256:1',
					hash: 'sha256:2'
				}
			],
			calls: [],
			blob: async () => null,
			model: 'demo/scripted'
		});
		expect(demo.skipped).toHaveLength(1);
		expect(demo.yaml).not.toContain('a.ts');
	});

	it('keeps the learner’s prompts as user steps and the model’s texts as say steps, inputs from the conversation', async () => {
		const workspace = join(folder, 'spoken');
		await cp(join(fixtures, 'trp1-workspace'), workspace, { recursive: true });
		const script = join(folder, 'spoken.yaml');
		await writeFile(
			script,
			`model: demo/scripted
steps:
  - user: Please select the JWT intent.
  - say: Selecting INT-001.
  - call: select_active_intent
    input: { intent_id: INT-001 }
`
		);
		expect((await replay(script, workspace)).code).toBe(0);
		const events = (await readFile(join(workspace, '.orchestration/audit.jsonl'), 'utf8'))
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as LedgerEvent);
		// No inputs from the page: the call's input comes from its conversation entry.
		const demo = await demoFromSession({
			events,
			calls: [],
			blob: async () => null,
			model: 'demo/scripted'
		});
		const parsed = parseReplayScript(demo.yaml);
		if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
		expect(parsed.script.steps).toEqual([
			{ user: 'Please select the JWT intent.', session: 'agent' },
			{ say: 'Selecting INT-001.', session: 'agent' },
			{
				call: 'select_active_intent',
				input: { intent_id: 'INT-001' },
				session: 'agent',
				expect: 'ok'
			}
		]);
	});
});
