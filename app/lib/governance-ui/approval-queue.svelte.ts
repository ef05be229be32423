import type {
	ApprovalAnswer,
	ApprovalPort,
	ApprovalPrompt
} from '../../../hooks/pipeline/ports.js';

/** Long enough for a real explanation; short enough that a pasted file cannot flood the ToolError. */
export const maximumReasonLength = 2000;

interface PendingApproval {
	prompt: ApprovalPrompt;
	resolve: (answer: ApprovalAnswer) => void;
}

/**
 * The approval port of the page: every `ask` of the pipeline waits here until the human answers in
 * the modal. Requests from all sessions queue first in, first out; only the oldest is shown. It
 * never answers on its own (no timeout, no default): only `answer` and `rejectAll` settle a request,
 * and `rejectAll` only ever rejects.
 */
export class ApprovalQueue implements ApprovalPort {
	// Raw: the entries hold resolve functions and the prompts' identity is the answer guard.
	#pending = $state.raw<readonly PendingApproval[]>([]);

	/** The request the modal shows, or null when nothing waits. */
	get current(): ApprovalPrompt | null {
		return this.#pending[0]?.prompt ?? null;
	}

	/** Every waiting request, oldest first (the current one included). */
	get pending(): readonly ApprovalPrompt[] {
		return this.#pending.map((entry) => entry.prompt);
	}

	get pendingCount(): number {
		return this.#pending.length;
	}

	request(prompt: ApprovalPrompt): Promise<ApprovalAnswer> {
		return new Promise<ApprovalAnswer>((resolve) => {
			this.#pending = [...this.#pending, { prompt, resolve }];
		});
	}

	/**
	 * Answers the current request. Pass the prompt the human was looking at: when it is no longer
	 * the current one (a double click, a second Enter, a session stopped meanwhile) nothing happens,
	 * so an answer can never land on a request the human has not seen. Returns whether it answered.
	 */
	answer(answer: ApprovalAnswer, prompt?: ApprovalPrompt): boolean {
		const [head, ...rest] = this.#pending;
		if (!head) return false;
		if (prompt !== undefined && prompt !== head.prompt) return false;
		const normalized = normalizeAnswer(answer, head.prompt);
		this.#pending = rest;
		head.resolve(normalized);
		return true;
	}

	/**
	 * Rejects the waiting requests of one session (or of all sessions when `sessionId` is omitted)
	 * with `reason`, e.g. when the user stops the session or closes it. Returns how many it rejected.
	 */
	rejectAll(reason: string, sessionId?: string): number {
		const rejected = this.#pending.filter(
			(entry) => sessionId === undefined || entry.prompt.sessionId === sessionId
		);
		if (rejected.length === 0) return 0;
		this.#pending = this.#pending.filter((entry) => !rejected.includes(entry));
		const answer = normalizeAnswer({ approved: false, reason }, undefined);
		for (const entry of rejected) entry.resolve({ ...answer });
		return rejected.length;
	}
}

/**
 * Only a literal `true` approves, so a malformed answer is a rejection; a remembered approval
 * needs an intent to remember it for.
 */
function normalizeAnswer(
	answer: ApprovalAnswer,
	prompt: ApprovalPrompt | undefined
): ApprovalAnswer {
	const approved = answer.approved === true;
	const normalized: ApprovalAnswer = { approved };
	const reason = typeof answer.reason === 'string' ? answer.reason.trim() : '';
	if (reason) normalized.reason = reason.slice(0, maximumReasonLength);
	if (approved && answer.remember === 'intent' && prompt?.intentId) normalized.remember = 'intent';
	else if (approved && answer.remember === 'once') normalized.remember = 'once';
	return normalized;
}
