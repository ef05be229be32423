import type { GradeSummary } from './grade-protocol.js';

/** Where a score sent to the LMS stands (server/lti/assignment-grades.ts). */
export type LmsStatus = 'sent' | 'pending' | 'failed';

export interface LmsAnswer {
	status: LmsStatus | 'refused';
	message: string;
}

/** The class server and instructor token the class source used (kept in memory only). */
export interface LmsTarget {
	base: string;
	token: string;
}

/**
 * The score an LMS gets for a graded row: the rubric's points, the verify verdict as the comment;
 * null when there is nothing to send (no rubric score or no scenario).
 */
export function lmsScoreOf(summary: GradeSummary): {
	scenario: string;
	score_given: number;
	score_maximum: number;
	pending_manual: boolean;
	comment: string;
} | null {
	if (!summary.score || !summary.scenario || summary.score.maximum <= 0) return null;
	return {
		scenario: summary.scenario.id,
		score_given: summary.score.score,
		score_maximum: summary.score.maximum,
		// Threadline's rubric criteria are all checked automatically today.
		pending_manual: false,
		comment: summary.verified
			? `Threadline verify: verified${summary.filesChecked ? '' : ' (chains only)'}`
			: `Threadline verify: FAILED: ${summary.firstFailure ?? 'see the report'}`
	};
}

/** The ledger id of a row the class source added (class-source.ts `classRowName`), else null. */
export function ledgerOfClassRow(name: string): string | null {
	return /\(class ledger ([A-Za-z0-9_-]{8,100})\)$/.exec(name)?.[1] ?? null;
}

/** Sends one score through the class server's LTI queue; a sentence for the grader either way. */
export async function sendToLms(
	target: LmsTarget,
	ledger: string,
	score: NonNullable<ReturnType<typeof lmsScoreOf>>,
	fetcher: typeof fetch = fetch
): Promise<LmsAnswer> {
	let response: Response;
	try {
		response = await fetcher(`${target.base}/api/lti/scores`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${target.token}` },
			body: JSON.stringify({ ledger, ...score })
		});
	} catch {
		return {
			status: 'refused',
			message: 'The class server could not be reached; nothing was queued.'
		};
	}
	const body = (await response.json().catch(() => ({}))) as {
		status?: string;
		error?: string;
		last_error?: string | null;
		attempts?: number;
	};
	if (body.status === 'sent') return { status: 'sent', message: 'Sent to the LMS.' };
	if (body.status === 'pending' || body.status === 'failed') {
		return {
			status: body.status,
			message: `Not delivered yet (${body.last_error ?? 'no answer'}; ${body.attempts ?? 0} attempt(s)); queued on the class server and retried.`
		};
	}
	return {
		status: 'refused',
		message: body.error ?? `The class server refused (${response.status}).`
	};
}
