import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';
import { exportOrchestration, orchestrationContents } from './export.js';
import { linesToBytes } from './line-blocks.js';
import { buildMixedLedger } from './ledger-test-fixtures.js';
import { renderIntentMap } from './intent-map.js';
import type { Intent } from '../intents/intent.js';

const intentsYaml = `active_intents:
  - id: INT-001
    name: JWT Authentication Migration
    status: IN_PROGRESS
    owned_scope: ["src/auth/**"]
`;

const intents: Intent[] = [
	{
		id: 'INT-001',
		name: 'JWT Authentication Migration',
		status: 'IN_PROGRESS',
		owned_scope: ['src/auth/**'],
		constraints: [],
		acceptance_criteria: [],
		parallel: false,
		extra: {}
	}
];

describe('exportOrchestration', () => {
	it('writes the six files', async () => {
		const { events } = await buildMixedLedger();
		const files = exportOrchestration({
			events,
			activeIntentsYaml: intentsYaml,
			agentMd: '# A\n',
			intents
		});
		expect([...files.keys()]).toEqual([
			'agent_trace.jsonl',
			'audit.jsonl',
			'conversation.jsonl',
			'intent_map.md',
			'AGENT.md',
			'active_intents.yaml'
		]);
		expect(files.get('active_intents.yaml')).toBe(intentsYaml);
		// No conversation in this ledger: the file is there, empty (an older export has none).
		expect(files.get('conversation.jsonl')).toBe('');
		// The fixture's snapshot records the starting texts (none), so AGENT.md is recomputed from
		// the ledger's lessons rather than copied from what the caller gave.
		expect(files.get('AGENT.md')).toContain(
			'- (INT-001, process): Ask before deleting legacy modules.'
		);
		expect(files.get('AGENT.md')).not.toContain('# A\n');
		// The intents come from the exported YAML itself, exactly as verify reads them.
		expect(files.get('intent_map.md')).toBe(renderIntentMap(events, intents));
	});

	it('recomputes AGENT.md from the snapshot text and the lessons, ignoring the given text', async () => {
		const { events } = await buildMixedLedger();
		const snapshot = {
			...events[0],
			type: 'workspace-snapshot',
			files: {},
			texts: { 'AGENT.md': '# Start\n' }
		} as unknown as (typeof events)[number];
		const lesson = {
			...events[1],
			type: 'lesson-record',
			intent_id: 'INT-001',
			lesson: 'line one\r## Fake heading\nline two',
			category: 'testing',
			source: 'agent'
		} as unknown as (typeof events)[number];
		const files = exportOrchestration({
			events: [snapshot, lesson],
			activeIntentsYaml: intentsYaml,
			agentMd: 'tampered on disk\n'
		});
		expect(files.get('AGENT.md')).toBe(
			'# Start\n\n## Lessons\n\n- (INT-001, testing): line one ## Fake heading line two\n'
		);
	});

	it('writes every event as one canonical line with a trailing newline', async () => {
		const { events } = await buildMixedLedger();
		const audit = exportOrchestration({ events, activeIntentsYaml: '', agentMd: '', intents }).get(
			'audit.jsonl'
		) as string;
		expect(audit.endsWith('\n')).toBe(true);
		const lines = audit.slice(0, -1).split('\n');
		expect(lines).toHaveLength(events.length);
		lines.forEach((line, position) => expect(line).toBe(canonicalJson(events[position])));
	});

	it("writes only the mutation records' traces, in order, to agent_trace.jsonl", async () => {
		const { events } = await buildMixedLedger();
		const trace = exportOrchestration({ events, activeIntentsYaml: '', agentMd: '', intents }).get(
			'agent_trace.jsonl'
		) as string;
		const records = trace
			.trimEnd()
			.split('\n')
			.map((line) => JSON.parse(line));
		expect(records.map((record) => record.metadata['dev.threadline'].seq)).toEqual([1, 2, 3, 4, 5]);
		const mutations = events.filter((event) => event.type === 'mutation-record');
		expect(records).toEqual(
			mutations.map((event) => event.type === 'mutation-record' && event.trace)
		);
	});

	it('writes empty jsonl files for an empty ledger', () => {
		const files = exportOrchestration({
			events: [],
			activeIntentsYaml: '',
			agentMd: '',
			intents: []
		});
		expect(files.get('audit.jsonl')).toBe('');
		expect(files.get('agent_trace.jsonl')).toBe('');
	});

	it('writes the same files as bytes, line by line, non-ASCII and large ledgers included', async () => {
		const { events } = await buildMixedLedger();
		// Lines with characters outside ASCII (one, two and four bytes in UTF-8), and enough of
		// them to grow the buffer past its first 64 KB.
		const many = Array.from({ length: 400 }, (_, index) => ({
			...(events[0] as (typeof events)[number]),
			seq: index + 1,
			note: `é €𝄞 ${'x'.repeat(index)}`
		})) as unknown as typeof events;
		for (const ledger of [events, many, []]) {
			const input = { events: ledger, activeIntentsYaml: intentsYaml, agentMd: '', intents };
			const texts = exportOrchestration(input);
			const contents = orchestrationContents(input);
			expect([...contents.keys()]).toEqual([...texts.keys()]);
			// As the zip writes them: lines encoded a block at a time, notes whole.
			for (const [name, content] of contents) {
				const bytes =
					content.kind === 'lines'
						? linesToBytes(content.lines())
						: new TextEncoder().encode(content.text);
				expect(new TextDecoder().decode(bytes), name).toBe(texts.get(name));
			}
		}
	});
});
