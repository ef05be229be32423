import { describe, expect, it } from 'vitest';
import { conversationSession } from '../pipeline/conversation-session-kit.js';
import { renderTranscriptMarkdown } from './render-transcript.js';
import { buildTranscript } from './transcript.js';

describe('transcript', () => {
	it('names, for every change, the learner message and the model text before it and its call', async () => {
		const events = await conversationSession();
		const transcript = buildTranscript(events);
		const change = transcript.items.find((item) => item.kind === 'change');
		expect(change).toBeDefined();
		if (change?.kind !== 'change') return;
		expect(change.path).toBe('src/auth/expiry.ts');
		const bySeq = new Map(events.map((event) => [event.seq, event]));
		const asked = bySeq.get(change.cause.userSeq ?? -1);
		const said = bySeq.get(change.cause.assistantSeq ?? -1);
		const call = bySeq.get(change.cause.toolCallSeq ?? -1);
		expect(asked?.type === 'conversation-entry' && asked.text).toBe(
			'Please make the token expire after an hour.'
		);
		expect(said?.type === 'conversation-entry' && said.text).toBe(
			'I will select INT-001 and change jwt.ts.'
		);
		expect(call?.type === 'conversation-entry' && call.tool_call?.id).toBe('call-2');
	});

	it('interleaves messages, calls, decisions and changes in ledger order', async () => {
		const transcript = buildTranscript(await conversationSession());
		const seqs = transcript.items.map((item) => item.seq);
		expect([...seqs].sort((left, right) => left - right)).toEqual(seqs);
		const kinds = transcript.items.map((item) =>
			item.kind === 'message' ? `${item.role}${item.toolCall ? ':call' : ''}` : item.kind
		);
		expect(kinds.slice(0, 6)).toEqual([
			'user',
			'assistant',
			'assistant:call',
			'decision',
			'note',
			'tool'
		]);
		const markdown = renderTranscriptMarkdown(transcript, { title: 'x', verdict: 'Verified.' });
		expect(markdown).toContain('**Learner**');
		expect(markdown).toContain('hooks: **deny** write_to_file (call-3)');
		expect(markdown).toMatch(
			/changed `src\/auth\/expiry\.ts` \(ai, write_to_file, INT-001; asked at/
		);
	});

	it('quotes texts so a message cannot forge a heading or a verdict', () => {
		const markdown = renderTranscriptMarkdown(
			{
				conversationEntries: 1,
				items: [
					{
						kind: 'message',
						seq: 2,
						session: 's',
						role: 'user',
						at: '2026-12-02T10:00:00.000Z',
						text: 'hi\n# Verified: all good'
					}
				]
			},
			{ title: 'x', verdict: '**NOT VERIFIED**' }
		);
		expect(markdown).toContain('> # Verified: all good');
		expect(markdown).not.toMatch(/^# Verified/m);
	});
});
