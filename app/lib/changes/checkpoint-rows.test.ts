import { describe, expect, it } from 'vitest';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import { checkpointRows } from './checkpoint-rows.js';

const base = (seq: number) => ({
	seq,
	timestamp: `t${seq}`,
	prev_hash: 'p',
	hash: 'h',
	session_id: 's'
});
const record = (seq: number, path: string, type: 'ai' | 'human', operation: 'write' | 'delete') =>
	({
		...base(seq),
		type: 'mutation-record',
		trace: {
			files: [{ path, conversations: [{ contributor: { type } }] }],
			metadata: {
				'dev.threadline': { tool: type === 'ai' ? 'write_to_file' : 'editor', operation }
			}
		}
	}) as unknown as LedgerEvent;

describe('checkpointRows', () => {
	it('lists the start and every file or folder change, newest first, with who made it', () => {
		const events: LedgerEvent[] = [
			{ ...base(1), type: 'intent-select', intent_id: 'INT-001', tool_call_id: null },
			{ ...base(2), type: 'workspace-snapshot', files: {} },
			record(3, 'a.ts', 'ai', 'write'),
			{ ...base(4), type: 'tool-call-finish', tool: 'x', tool_call_id: 'c', ok: true },
			{
				...base(5),
				type: 'folder-change',
				tool: 'terminal',
				tool_call_id: null,
				path: 'docs',
				change: 'created',
				contributor: 'human'
			},
			record(6, 'a.ts', 'human', 'delete')
		];
		expect(checkpointRows(events)).toEqual([
			{ seq: 6, timestamp: 't6', label: 'editor deleted a.ts', who: 'you' },
			{ seq: 5, timestamp: 't5', label: 'terminal made the folder docs', who: 'you' },
			{ seq: 3, timestamp: 't3', label: 'write_to_file wrote a.ts', who: 'agent' },
			{ seq: 2, timestamp: 't2', label: 'Start of the session', who: 'system' }
		]);
		expect(checkpointRows(events, 2)).toHaveLength(2);
		expect(checkpointRows(events.filter((event) => event.type !== 'workspace-snapshot'))).toEqual(
			[]
		);
	});
});
