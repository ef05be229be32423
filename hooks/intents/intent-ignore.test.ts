import { describe, expect, it } from 'vitest';
import { parseIntentIgnore } from './intent-ignore.js';

describe('parseIntentIgnore', () => {
	it('reads one id per line, skipping comments and blank lines', () => {
		const text = `# Intents the agent must not change without asking
INT-001

   INT-002   
INT-003 # legacy billing, ask first
	# indented comment
`;
		expect([...parseIntentIgnore(text)]).toEqual(['INT-001', 'INT-002', 'INT-003']);
	});

	it('handles CRLF, a BOM, a missing final newline and duplicates', () => {
		expect([...parseIntentIgnore('\ufeffINT-001\r\nINT-002\r\nINT-001')]).toEqual([
			'INT-001',
			'INT-002'
		]);
		expect([...parseIntentIgnore('A\rB')]).toEqual(['A', 'B']);
	});

	it('returns an empty set for an empty or comment-only file', () => {
		expect(parseIntentIgnore('').size).toBe(0);
		expect(parseIntentIgnore('# nothing\n\n   \n#INT-001\n').size).toBe(0);
	});

	it('keeps ids exactly as written (case matters)', () => {
		const ids = parseIntentIgnore('int-001\nINT-001#no space before the comment\n');
		expect(ids.has('int-001')).toBe(true);
		expect(ids.has('INT-001')).toBe(true);
		expect(ids.size).toBe(2);
	});
});
