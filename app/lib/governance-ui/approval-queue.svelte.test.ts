import { describe, expect, it } from 'vitest';
import type { ApprovalAnswer, ApprovalPrompt } from '../../../hooks/pipeline/ports.js';
import { ApprovalQueue, maximumReasonLength } from './approval-queue.svelte.js';

function prompt(overrides: Partial<ApprovalPrompt> = {}): ApprovalPrompt {
	return {
		hook: 'approval-policy',
		reasons: ['The agent wants to change src/a.ts.'],
		intentId: 'INT-001',
		sessionId: 'builder',
		tool: 'write_to_file',
		toolCallId: 'call-1',
		input: { path: 'src/a.ts', content: 'x' },
		...overrides
	};
}

/** Records when each request settles, so a test can see that nothing settled on its own. */
function track(promise: Promise<ApprovalAnswer>) {
	const state: { answer: ApprovalAnswer | null } = { answer: null };
	void promise.then((answer) => (state.answer = answer));
	return state;
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ApprovalQueue', () => {
	it('starts empty', () => {
		const queue = new ApprovalQueue();
		expect(queue.current).toBeNull();
		expect(queue.pendingCount).toBe(0);
		expect(queue.pending).toEqual([]);
		expect(queue.answer({ approved: true })).toBe(false);
	});

	it('shows requests first in, first out and resolves each with its own answer', async () => {
		const queue = new ApprovalQueue();
		const first = prompt({ toolCallId: 'call-1' });
		const second = prompt({ toolCallId: 'call-2', sessionId: 'architect' });
		const firstAnswer = queue.request(first);
		const secondAnswer = queue.request(second);
		expect(queue.current).toBe(first);
		expect(queue.pendingCount).toBe(2);
		expect(queue.pending).toEqual([first, second]);

		expect(queue.answer({ approved: true }, first)).toBe(true);
		expect(queue.current).toBe(second);
		expect(queue.pendingCount).toBe(1);
		expect(queue.answer({ approved: false, reason: 'not now' }, second)).toBe(true);

		await expect(firstAnswer).resolves.toEqual({ approved: true });
		await expect(secondAnswer).resolves.toEqual({ approved: false, reason: 'not now' });
		expect(queue.current).toBeNull();
	});

	it('never settles a request by itself', async () => {
		const queue = new ApprovalQueue();
		const state = track(queue.request(prompt()));
		await flush();
		await flush();
		expect(state.answer).toBeNull();
		expect(queue.pendingCount).toBe(1);
	});

	it('ignores an answer meant for a request that is no longer current (double click)', async () => {
		const queue = new ApprovalQueue();
		const first = prompt({ toolCallId: 'call-1' });
		const second = prompt({ toolCallId: 'call-2' });
		const firstAnswer = queue.request(first);
		const secondState = track(queue.request(second));
		expect(queue.answer({ approved: true }, first)).toBe(true);
		// The second click of a double click still names the first prompt.
		expect(queue.answer({ approved: true }, first)).toBe(false);
		await firstAnswer;
		await flush();
		expect(secondState.answer).toBeNull();
		expect(queue.current).toBe(second);
	});

	it('guards by identity, not by tool call id (two sessions may reuse an id)', () => {
		const queue = new ApprovalQueue();
		const fromBuilder = prompt({ toolCallId: 'call-1', sessionId: 'builder' });
		const fromArchitect = prompt({ toolCallId: 'call-1', sessionId: 'architect' });
		void queue.request(fromBuilder);
		void queue.request(fromArchitect);
		expect(queue.answer({ approved: true }, fromArchitect)).toBe(false);
		expect(queue.current).toBe(fromBuilder);
	});

	it('remembers an approval for the intent only when the request has an intent', async () => {
		const queue = new ApprovalQueue();
		const withIntent = queue.request(prompt());
		const withoutIntent = queue.request(prompt({ intentId: undefined, toolCallId: 'call-2' }));
		queue.answer({ approved: true, remember: 'intent' });
		queue.answer({ approved: true, remember: 'intent' });
		await expect(withIntent).resolves.toEqual({ approved: true, remember: 'intent' });
		await expect(withoutIntent).resolves.toEqual({ approved: true });
	});

	it('does not let a rejection carry remember, and trims or drops the reason', async () => {
		const queue = new ApprovalQueue();
		const rejected = queue.request(prompt());
		const blank = queue.request(prompt({ toolCallId: 'call-2' }));
		queue.answer({ approved: false, remember: 'intent', reason: '  use src/b.ts  ' });
		queue.answer({ approved: false, reason: '   \n ' });
		await expect(rejected).resolves.toEqual({ approved: false, reason: 'use src/b.ts' });
		await expect(blank).resolves.toEqual({ approved: false });
	});

	it('treats anything but a literal true as a rejection', async () => {
		const queue = new ApprovalQueue();
		const answer = queue.request(prompt());
		queue.answer({ approved: 'yes' as unknown as boolean });
		await expect(answer).resolves.toEqual({ approved: false });
	});

	it('caps a very long reason', async () => {
		const queue = new ApprovalQueue();
		const answer = queue.request(prompt());
		queue.answer({ approved: false, reason: 'x'.repeat(maximumReasonLength + 50) });
		expect((await answer).reason).toHaveLength(maximumReasonLength);
	});

	it('rejects only the stopped session’s requests and keeps the order of the rest', async () => {
		const queue = new ApprovalQueue();
		const builderOne = queue.request(prompt({ toolCallId: 'b1', sessionId: 'builder' }));
		const architect = prompt({ toolCallId: 'a1', sessionId: 'architect' });
		const architectState = track(queue.request(architect));
		const builderTwo = queue.request(prompt({ toolCallId: 'b2', sessionId: 'builder' }));
		const laterArchitect = prompt({ toolCallId: 'a2', sessionId: 'architect' });
		void queue.request(laterArchitect);

		expect(queue.rejectAll('The session was stopped.', 'builder')).toBe(2);
		await expect(builderOne).resolves.toEqual({
			approved: false,
			reason: 'The session was stopped.'
		});
		await expect(builderTwo).resolves.toEqual({
			approved: false,
			reason: 'The session was stopped.'
		});
		expect(queue.pending).toEqual([architect, laterArchitect]);
		expect(queue.current).toBe(architect);
		await flush();
		expect(architectState.answer).toBeNull();
	});

	it('rejects every session when no session is named, and reports zero when none waits', async () => {
		const queue = new ApprovalQueue();
		const one = queue.request(prompt({ sessionId: 'builder' }));
		const two = queue.request(prompt({ sessionId: 'architect' }));
		expect(queue.rejectAll('The page is closing.')).toBe(2);
		expect(queue.current).toBeNull();
		await expect(Promise.all([one, two])).resolves.toEqual([
			{ approved: false, reason: 'The page is closing.' },
			{ approved: false, reason: 'The page is closing.' }
		]);
		expect(queue.rejectAll('again')).toBe(0);
		expect(queue.rejectAll('other', 'nobody')).toBe(0);
	});

	it('lets the modal answer the next request after a session was rejected under it', () => {
		const queue = new ApprovalQueue();
		const shown = prompt({ sessionId: 'builder' });
		const next = prompt({ sessionId: 'architect', toolCallId: 'call-2' });
		void queue.request(shown);
		void queue.request(next);
		queue.rejectAll('stopped', 'builder');
		// The modal still holds `shown`: its late click must not approve `next`.
		expect(queue.answer({ approved: true }, shown)).toBe(false);
		expect(queue.answer({ approved: true }, next)).toBe(true);
	});
});
