import { describe, expect, it } from 'vitest';
import { contentHash } from '../hashing/sha256.js';
import type { LedgerEvent } from '../ledger/ledger-event.js';
import { governedIntentIgnoreHash, protectedIntentsAtOpen } from './governed-intent-ignore.js';
import { parseIntentIgnore, withIntentProtection } from './intent-ignore.js';

const encode = (text: string) => new TextEncoder().encode(text);
let seq = 0;
const base = () => ({ seq: ++seq, timestamp: 't', prev_hash: 'p', hash: 'h', session_id: 's' });
const snapshot = (files: Record<string, string>) =>
	({ ...base(), type: 'workspace-snapshot', files }) as LedgerEvent;
const record = (path: string, fileHash: string, tool: string, contributor: 'ai' | 'human') =>
	({
		...base(),
		type: 'mutation-record',
		trace: {
			files: [{ path, conversations: [{ contributor: { type: contributor } }] }],
			metadata: { 'dev.threadline': { file_hash: fileHash, tool } }
		}
	}) as unknown as LedgerEvent;

describe('the governed version of .intentignore', () => {
	it('is the starting snapshot’s, then each intent-protection change by the person, nothing else', async () => {
		const start = await contentHash('INT-002\n');
		const emptied = await contentHash('');
		const protectedBoth = await contentHash('INT-002\nINT-001\n');
		expect(governedIntentIgnoreHash([])).toBeUndefined();
		expect(governedIntentIgnoreHash([snapshot({ 'a.ts': 'sha256:a' })])).toBeNull();
		const events = [
			snapshot({ '.intentignore': start }),
			record('.intentignore', emptied, 'write_to_file', 'ai'),
			record('.intentignore', emptied, 'terminal', 'human'),
			record('.intentignore', emptied, 'intent-protection', 'ai'),
			snapshot({ '.intentignore': emptied })
		];
		expect(governedIntentIgnoreHash(events)).toBe(start);
		events.push(record('.intentignore', protectedBoth, 'intent-protection', 'human'));
		expect(governedIntentIgnoreHash(events)).toBe(protectedBoth);
	});

	it('decides protection at open: the file when it matches, else the recorded text, else every intent', async () => {
		const events = [snapshot({ '.intentignore': await contentHash('INT-002\n') })];
		const open = (current: string | null, stored: string | null) =>
			protectedIntentsAtOpen({
				events,
				current: current === null ? null : encode(current),
				blob: async () => (stored === null ? null : encode(stored)),
				intentIds: ['INT-001', 'INT-002']
			});
		expect(await open('INT-002\n', null)).toEqual({ text: 'INT-002\n', problem: null });
		const emptied = await open('# none\n', 'INT-002\n');
		expect([...parseIntentIgnore(emptied.text)]).toEqual(['INT-002']);
		expect(emptied.problem).toMatch(/protection follows the recorded version/);
		const widened = await open('INT-001\n', 'INT-002\n');
		expect([...parseIntentIgnore(widened.text)].sort()).toEqual(['INT-001', 'INT-002']);
		// A blob that is not the recorded content is no better than none.
		const unknown = await open(null, 'INT-009\n');
		expect([...parseIntentIgnore(unknown.text)]).toEqual(['INT-001', 'INT-002']);
		expect(unknown.problem).toMatch(/every intent is protected/);
	});
});

describe('withIntentProtection', () => {
	it('adds a line, removes every listing (keeping comments), and changes nothing otherwise', () => {
		expect(withIntentProtection('', 'INT-001', true)).toBe('INT-001\n');
		expect(withIntentProtection('# list', 'INT-001', true)).toBe('# list\nINT-001\n');
		expect(withIntentProtection('INT-001\n', 'INT-001', true)).toBe('INT-001\n');
		expect(
			withIntentProtection('\ufeffINT-001 # a\r\nINT-002\r\n INT-001\r\n', 'INT-001', false)
		).toBe('\ufeff# a\r\nINT-002\r\n');
		expect(withIntentProtection('INT-002\n', 'INT-001', false)).toBe('INT-002\n');
	});
});
