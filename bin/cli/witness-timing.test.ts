import { createHash, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../hooks/ledger/canonical-json.js';
import { genesisHash } from '../../hooks/ledger/ledger-event.js';
import { receiptSignatureValid, signCanonical, signReceipt } from '../../server/witness/receipt.js';
import { checkReceipts } from './witness-check.js';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const valid = (receipt: unknown, signature: unknown) =>
	receiptSignatureValid(receipt, signature, publicKey);

type Event = Record<string, unknown> & { seq: number; hash: string };

function rechain(bodies: readonly Record<string, unknown>[]): Event[] {
	let previous = genesisHash;
	return bodies.map((body, index) => {
		const unsealed = { ...body, seq: index + 1, prev_hash: previous };
		const hash = `sha256:${createHash('sha256')
			.update(previous + canonicalJson(unsealed))
			.digest('hex')}`;
		previous = hash;
		return { ...unsealed, hash } as Event;
	});
}

const minute = 60_000;
const start = Date.UTC(2026, 11, 1, 9, 0, 0);
const at = (milliseconds: number) => new Date(start + milliseconds).toISOString();

/**
 * A history of `count` events written one `spacing` apart, then one receipt for all of it
 * received at `receivedAt`, with the identity fields the server binds (overridable).
 */
function witnessedOnce(
	count: number,
	spacing: number,
	receivedAt: string,
	identity: Record<string, unknown> = {}
): Event[] {
	const bodies = Array.from({ length: count }, (_, index) => ({
		type: 'lesson-record',
		session_id: 's',
		lesson: `l${index}`,
		timestamp: at(index * spacing)
	}));
	const chained = rechain(bodies);
	const head = chained.at(-1) as Event;
	const signed = signReceipt(
		{
			ledger: 'ledger-time-01',
			learner: 'learner-a',
			learner_name: 'Ada',
			genesis_hash: chained[0]?.hash as string,
			...identity,
			seq: head.seq,
			head_hash: head.hash,
			received_at: receivedAt
		} as Parameters<typeof signReceipt>[0],
		privateKey
	);
	return rechain([
		...bodies,
		{ type: 'witness-receipt', session_id: 'class-witness', timestamp: receivedAt, ...signed }
	]);
}

describe('receipts against the events’ own times and the ledger’s bound identity', () => {
	it('passes events witnessed as they were written', () => {
		const check = checkReceipts(witnessedOnce(6, minute, at(6 * minute)), valid);
		expect(check.invalid).toEqual([]);
		expect(check.witnessedSeq).toBe(6);
		expect(check.learner).toEqual({ id: 'learner-a', name: 'Ada' });
		expect(check.delays.late).toEqual([]);
	});

	it('reports a two-hour history witnessed all at once, and fails one older than the allowed delay', () => {
		const twoHours = checkReceipts(witnessedOnce(5, 30 * minute, at(120 * minute + 2000)), valid);
		expect(twoHours.invalid).toEqual([]);
		expect(twoHours.delays.late).toEqual([{ from: 1, to: 5, delayMs: 120 * minute + 2000 }]);
		const strict = checkReceipts(witnessedOnce(5, 30 * minute, at(120 * minute + 2000)), valid, {
			maximumDelayMs: 60 * minute
		});
		expect(strict.witnessedSeq).toBe(0);
		expect(strict.invalid[0]?.problem).toContain('after they were written');
		const threeDays = checkReceipts(witnessedOnce(3, minute, at(72 * 60 * minute)), valid);
		expect(threeDays.witnessedSeq).toBe(0);
		expect(threeDays.invalid[0]?.problem).toContain('allowed for offline work');
	});

	it('fails events that claim a time after the server received them', () => {
		const check = checkReceipts(witnessedOnce(4, 10 * minute, at(5 * minute)), valid);
		expect(check.witnessedSeq).toBe(0);
		expect(check.invalid[0]?.problem).toContain('its time was made up');
	});

	it('fails receipts signed for another history (moved onto this one) or naming two learners', () => {
		const moved = checkReceipts(
			witnessedOnce(3, minute, at(3 * minute), { genesis_hash: `sha256:${'a'.repeat(64)}` }),
			valid
		);
		expect(moved.witnessedSeq).toBe(0);
		expect(moved.invalid[0]?.problem).toContain('receipts moved to another history');

		const first = witnessedOnce(3, minute, at(3 * minute));
		const more = rechain([
			...first.map(({ seq: _seq, prev_hash: _previous, hash: _hash, ...body }) => body),
			{ type: 'lesson-record', session_id: 's', lesson: 'later', timestamp: at(4 * minute) }
		]);
		const head = more.at(-1) as Event;
		const other = signReceipt(
			{
				ledger: 'ledger-time-01',
				learner: 'learner-b',
				genesis_hash: more[0]?.hash,
				seq: head.seq,
				head_hash: head.hash,
				received_at: at(5 * minute)
			} as Parameters<typeof signReceipt>[0],
			privateKey
		);
		const both = rechain([
			...more.map(({ seq: _seq, prev_hash: _previous, hash: _hash, ...body }) => body),
			{ type: 'witness-receipt', session_id: 'class-witness', timestamp: at(5 * minute), ...other }
		]);
		const check = checkReceipts(both, valid);
		expect(check.witnessedSeq).toBe(3);
		expect(check.invalid[0]?.problem).toContain('receipts of two learners');
	});

	it('checks a birth certificate in the first event: signed, its ledger and learner in every receipt, no event before it', () => {
		const certificate = {
			kind: 'threadline-ledger-birth',
			class: 'cs101',
			ledger: 'ledger-time-01',
			learner: 'learner-a',
			learner_name: 'Ada',
			issued_at: at(0)
		};
		const bornWith = (birth: unknown, firstAt = at(minute)) => {
			const bodies = [
				{
					type: 'workspace-snapshot',
					session_id: 'w',
					files: {},
					class_ledger: birth,
					timestamp: firstAt
				},
				{ type: 'lesson-record', session_id: 's', lesson: 'l', timestamp: at(2 * minute) }
			];
			const chained = rechain(bodies);
			const head = chained.at(-1) as Event;
			const signed = signReceipt(
				{
					ledger: 'ledger-time-01',
					learner: 'learner-a',
					genesis_hash: chained[0]?.hash as string,
					seq: head.seq,
					head_hash: head.hash,
					received_at: at(3 * minute)
				},
				privateKey
			);
			return rechain([
				...bodies,
				{
					type: 'witness-receipt',
					session_id: 'class-witness',
					timestamp: at(3 * minute),
					...signed
				}
			]);
		};
		const signature = (value: object) => signCanonical(value, privateKey);
		const good = checkReceipts(bornWith({ certificate, signature: signature(certificate) }), valid);
		expect(good.invalid).toEqual([]);
		expect(good.birth).toMatchObject({ ledger: 'ledger-time-01', learner: 'learner-a' });
		expect(good.witnessedSeq).toBe(2);
		// A history dated before its ledger was issued (made earlier, moved into a fresh ledger).
		const early = checkReceipts(
			bornWith({ certificate, signature: signature(certificate) }, at(-60 * minute)),
			valid
		);
		expect(early.invalid[0]?.problem).toContain('before its ledger was issued');
		// Edited (not the class key's signature), or another ledger than the receipts name.
		const edited = { ...certificate, issued_at: at(-600 * minute) };
		expect(
			checkReceipts(bornWith({ certificate: edited, signature: signature(certificate) }), valid)
				.invalid[0]?.problem
		).toContain('not signed with the class key');
		const elsewhere = { ...certificate, ledger: 'ledger-time-99' };
		const moved = checkReceipts(
			bornWith({ certificate: elsewhere, signature: signature(elsewhere) }),
			valid
		);
		expect(moved.witnessedSeq).toBe(0);
		expect(moved.invalid[0]?.problem).toContain('born as ledger ledger-time-99');
		// A signed receipt is not a certificate (no kind).
		const receipt = { ledger: 'ledger-time-01', seq: 1, head_hash: 'x', received_at: at(0) };
		expect(
			checkReceipts(bornWith({ certificate: receipt, signature: signature(receipt) }), valid)
				.invalid[0]?.problem
		).toContain('not one the class server issues');
	});
});
