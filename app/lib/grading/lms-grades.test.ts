import { describe, expect, it } from 'vitest';
import { classRowName } from './class-source.js';
import type { GradeSummary } from './grade-protocol.js';
import { ledgerOfClassRow, lmsScoreOf, sendToLms } from './lms-grades.js';

const summary = (overrides: Partial<GradeSummary>) =>
	({
		score: { score: 7, maximum: 10, lines: [] },
		scenario: { id: 'jwt-auth', title: 'JWT', source: 'built-in', contentHash: 'x' },
		verified: true,
		filesChecked: false,
		firstFailure: null,
		...overrides
	}) as unknown as GradeSummary;

describe('LMS grades from /grade', () => {
	it('finds the ledger of a row the class source named, and of no other row', () => {
		const name = classRowName({ ledger: 'ledger-abc_123', learner: { id: 'l', name: 'Ada/..' } });
		expect(ledgerOfClassRow(name)).toBe('ledger-abc_123');
		expect(ledgerOfClassRow('my-export')).toBeNull();
		expect(ledgerOfClassRow('x (class ledger ab)')).toBeNull();
	});

	it('sends the rubric score and the verdict, nothing without a score or scenario', () => {
		expect(lmsScoreOf(summary({}))).toEqual({
			scenario: 'jwt-auth',
			score_given: 7,
			score_maximum: 10,
			pending_manual: false,
			comment: 'Threadline verify: verified (chains only)'
		});
		expect(lmsScoreOf(summary({ verified: false, firstFailure: 'seq 4 hash' }))?.comment).toBe(
			'Threadline verify: FAILED: seq 4 hash'
		);
		expect(lmsScoreOf(summary({ score: null }))).toBeNull();
		expect(lmsScoreOf(summary({ scenario: null }))).toBeNull();
	});

	it('reports sent, queued and refused answers as the grader should see them', async () => {
		const answering = (status: number, body: unknown) =>
			(async () => Response.json(body, { status })) as unknown as typeof fetch;
		const target = { base: 'http://class', token: 't' };
		const score = lmsScoreOf(summary({}))!;
		expect(
			(await sendToLms(target, 'ledger-1', score, answering(200, { status: 'sent' }))).status
		).toBe('sent');
		const failed = await sendToLms(
			target,
			'ledger-1',
			score,
			answering(202, { status: 'failed', last_error: 'the LMS answered 500', attempts: 3 })
		);
		expect(failed.status).toBe('failed');
		expect(failed.message).toContain('the LMS answered 500');
		const refused = await sendToLms(
			target,
			'ledger-1',
			score,
			answering(409, { error: 'no LMS line item' })
		);
		expect(refused).toEqual({ status: 'refused', message: 'no LMS line item' });
		const offline = await sendToLms(target, 'ledger-1', score, (async () => {
			throw new TypeError('offline');
		}) as unknown as typeof fetch);
		expect(offline.status).toBe('refused');
	});
});
