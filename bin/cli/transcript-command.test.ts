import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureOutput } from './capture-output.js';
import { main } from './main.js';

/**
 * A scripted session speaks (issue 31): `user:` and `say:` steps, each call as sent and its
 * result, land in conversation.jsonl; `threadline transcript` reads it back verified, with the
 * decisions and changes in order; `threadline otel` gives OTLP/JSON.
 */
const fixtures = join(import.meta.dirname, '..', 'fixtures');
let workspace: string;
let scripts: string;

beforeEach(async () => {
	workspace = await mkdtemp(join(tmpdir(), 'threadline-transcript-'));
	scripts = await mkdtemp(join(tmpdir(), 'threadline-scripts-'));
	await cp(join(fixtures, 'trp1-workspace'), workspace, { recursive: true });
});

afterEach(async () => {
	await rm(workspace, { recursive: true, force: true });
	await rm(scripts, { recursive: true, force: true });
});

async function run(argv: string[]) {
	const streams = captureOutput();
	const code = await main(argv, streams.output);
	return { code, out: streams.out.join('\n'), err: streams.err.join('\n') };
}

const script = `model: openai/gpt-test
steps:
  - user: Make the token expire after an hour, my key is sk-ant-api03-ABCDEFGHIJKLMNOPQRSTUV
  - say: I will select INT-001 first.
  - call: select_active_intent
    input: { intent_id: INT-001 }
  - say: Now the expiry.
  - call: write_to_file
    input: { path: src/auth/expiry.ts, content: "export const expiresIn = 3600;\\n", intent_id: INT-001, mutation_class: INTENT_EVOLUTION }
    approve: true
`;

describe('threadline transcript and otel over a replayed session', () => {
	it('records the script’s conversation and prints it with the change’s cause, verified', async () => {
		const path = join(scripts, 'script.yaml');
		await writeFile(path, script);
		expect((await run(['replay', path, '--workspace', workspace])).code).toBe(0);
		const lines = (await readFile(join(workspace, '.orchestration', 'conversation.jsonl'), 'utf8'))
			.trimEnd()
			.split('\n')
			.map((line) => JSON.parse(line));
		expect(lines.map((line) => line.role)).toEqual([
			'user',
			'assistant',
			'assistant',
			'tool',
			'assistant',
			'assistant',
			'tool'
		]);
		expect(lines[0].text).toBe('Make the token expire after an hour, my key is [redacted]');
		expect(lines[2].tool_call).toMatchObject({ name: 'select_active_intent' });
		expect(lines[1].model).toBe('openai/gpt-test');

		const markdown = await run(['transcript', workspace]);
		expect(markdown.code).toBe(0);
		expect(markdown.out).toMatch(/^Verified: the chains and every \.orchestration\/ file hold/m);
		expect(markdown.out).toContain('**Learner**');
		expect(markdown.out).toMatch(
			new RegExp(
				`changed \`src/auth/expiry\\.ts\` \\(ai, write_to_file, INT-001; asked at \`${lines[0].seq}\`, model said at \`${lines[4].seq}\`, call at \`${lines[5].seq}\`\\)`
			)
		);

		const json = await run(['transcript', workspace, '--format', 'json']);
		const parsed = JSON.parse(json.out);
		expect(parsed.verified).toBe(true);
		expect(parsed.conversation_entries).toBe(7);

		const otel = await run(['otel', workspace]);
		expect(otel.code).toBe(0);
		const spans = JSON.parse(otel.out).resourceSpans[0].scopeSpans[0].spans;
		expect(
			spans.filter((span: { name: string }) => span.name.startsWith('execute_tool'))
		).toHaveLength(2);
	});

	it('says NOT VERIFIED (exit 1) when a conversation line was edited, and otel refuses it', async () => {
		const path = join(scripts, 'script.yaml');
		await writeFile(path, script);
		await run(['replay', path, '--workspace', workspace]);
		const file = join(workspace, '.orchestration', 'conversation.jsonl');
		await writeFile(file, (await readFile(file, 'utf8')).replace('after an hour', 'after a day'));
		const markdown = await run(['transcript', workspace]);
		expect(markdown.code).toBe(1);
		expect(markdown.out).toMatch(
			/\*\*NOT VERIFIED\*\*: \.orchestration\/conversation\.jsonl: differs/
		);
		expect((await run(['otel', workspace])).code).toBe(1);
	});
});
