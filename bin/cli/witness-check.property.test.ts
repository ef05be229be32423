import { createHash, generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../hooks/ledger/canonical-json.js';
import { genesisHash } from '../../hooks/ledger/ledger-event.js';
import { receiptSignatureValid, signReceipt } from '../../server/witness/receipt.js';
import { checkReceipts, compareWithServer } from './witness-check.js';

type Event = Record<string, unknown> & {
	seq: number;
	hash: string;
	prev_hash: string;
	type: string;
};

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const { privateKey: otherKey } = generateKeyPairSync('ed25519');
const signatureValid = (receipt: unknown, signature: unknown) =>
	receiptSignatureValid(receipt, signature, publicKey);

/** Chains bodies the way the ledger does: seq from 1, prev_hash links, sha256 over canonical JSON. */
function rechain(bodies: readonly Record<string, unknown>[]): Event[] {
	let previous = genesisHash;
	return bodies.map((body, index) => {
		const { hash: _hash, ...rest } = body;
		const unsealed = { ...rest, seq: index + 1, prev_hash: previous };
		const hash = `sha256:${createHash('sha256')
			.update(previous + canonicalJson(unsealed))
			.digest('hex')}`;
		previous = hash;
		return { ...unsealed, hash } as Event;
	});
}

const bodyArbitrary = fc.record({
	type: fc.constantFrom('tool-call-start', 'tool-decision', 'lesson-record', 'mutation-record'),
	session_id: fc.constantFrom('s1', 's2'),
	note: fc.string({ maxLength: 8 }),
	decision: fc.constantFrom('allow', 'deny', 'ask')
});

/**
 * What an honest session produces: batches of events, each witnessed by the server (a receipt
 * for its head, appended to the ledger as a witness-receipt event). Returns the learner's ledger
 * and the server's copy (the same events: the server stored every batch it receipted).
 */
function witnessedLedger(
	batches: Record<string, unknown>[][],
	unwitnessedTail: Record<string, unknown>[]
) {
	let bodies: Record<string, unknown>[] = [];
	for (const batch of batches) {
		bodies = [...bodies, ...batch];
		const chained = rechain(bodies);
		const head = chained.at(-1) as Event;
		const signed = signReceipt(
			{
				ledger: 'ledger-prop-01',
				seq: head.seq,
				head_hash: head.hash,
				received_at: '2026-11-23T12:00:00.000Z'
			},
			privateKey
		);
		bodies.push({ type: 'witness-receipt', session_id: 'class-witness', ...signed });
	}
	const witnessedCount = bodies.length - 1; // the last receipt event itself is not yet sent
	bodies = [...bodies, ...unwitnessedTail];
	const events = rechain(bodies);
	return { events, server: events.slice(0, witnessedCount) };
}

const withoutLinks = (event: Event): Record<string, unknown> => {
	const { seq: _seq, prev_hash: _previous, hash: _hash, ...body } = event;
	return body;
};

type Rewrite =
	| { kind: 'edit'; at: number; note: string }
	| { kind: 'drop'; at: number }
	| { kind: 'reorder'; at: number }
	| { kind: 'truncate'; at: number }
	| { kind: 'fork'; at: number; bodies: Record<string, unknown>[] }
	| { kind: 'replay'; bodies: Record<string, unknown>[]; keepReceipts: boolean }
	| { kind: 'forge-receipt'; at: number };

/** Applies a forger's rewrite at `at` (0-based, inside the witnessed prefix) and recomputes the chain. */
function rewrite(
	events: Event[],
	change: Rewrite,
	dropReceipts: boolean
): { events: Event[]; firstChanged: number } {
	let bodies = events.map(withoutLinks);
	let firstChanged: number;
	switch (change.kind) {
		case 'edit':
			bodies[change.at] = {
				...bodies[change.at],
				note: `${String(bodies[change.at]?.note)}${change.note}|edited`
			};
			break;
		case 'drop':
			bodies.splice(change.at, 1);
			break;
		case 'reorder': {
			const [moved] = bodies.splice(change.at, 1);
			bodies.splice(change.at + 1, 0, moved as Record<string, unknown>);
			if (canonicalJson(bodies[change.at]) === canonicalJson(moved))
				bodies[change.at] = { ...bodies[change.at], note: 'swapped-equal' };
			break;
		}
		case 'truncate':
			bodies = bodies.slice(0, change.at);
			break;
		case 'fork':
			bodies = [
				...bodies.slice(0, change.at),
				{ type: 'lesson-record', session_id: 'forged', note: 'fork' },
				...change.bodies
			];
			break;
		case 'replay':
			bodies = [
				{ type: 'workspace-snapshot', session_id: 'replayed', note: 'clean history' },
				...change.bodies,
				...(change.keepReceipts ? bodies.filter((body) => body.type === 'witness-receipt') : [])
			];
			break;
		case 'forge-receipt': {
			const forged = signReceipt(
				{
					ledger: 'ledger-prop-01',
					seq: change.at + 1,
					head_hash: 'sha256:' + 'f'.repeat(64),
					received_at: '2026-11-23T12:00:00.000Z'
				},
				otherKey
			);
			bodies[change.at] = { ...bodies[change.at], note: 'forged', type: 'lesson-record' };
			bodies.push({ type: 'witness-receipt', session_id: 'class-witness', ...forged });
			break;
		}
	}
	if (dropReceipts) bodies = bodies.filter((body) => body.type !== 'witness-receipt');
	// The first seq whose content (links aside) really differs: a swap of two equal events changes
	// nothing at its own position.
	const original = events.map((event) => canonicalJson(withoutLinks(event)));
	firstChanged = bodies.findIndex((body, index) => canonicalJson(body) !== original[index]) + 1;
	if (firstChanged === 0) firstChanged = bodies.length + 1;
	return { events: rechain(bodies), firstChanged };
}

describe('witnessed verify (property): every rewrite of a witnessed prefix is detected', () => {
	const scenario = fc
		.record({
			batches: fc.array(fc.array(bodyArbitrary, { minLength: 1, maxLength: 5 }), {
				minLength: 1,
				maxLength: 5
			}),
			tail: fc.array(bodyArbitrary, { maxLength: 4 }),
			dropReceipts: fc.boolean(),
			kind: fc.constantFrom(
				'edit',
				'drop',
				'reorder',
				'truncate',
				'fork',
				'replay',
				'forge-receipt'
			),
			position: fc.nat(),
			note: fc.string({ minLength: 1, maxLength: 4 }),
			extra: fc.array(bodyArbitrary, { maxLength: 4 }),
			keepReceipts: fc.boolean()
		})
		.map((input) => {
			const honest = witnessedLedger(input.batches, input.tail);
			const witnessed = honest.server.length;
			const at = input.position % witnessed;
			const change: Rewrite =
				input.kind === 'replay'
					? { kind: 'replay', bodies: input.extra, keepReceipts: input.keepReceipts }
					: input.kind === 'fork'
						? { kind: 'fork', at, bodies: input.extra }
						: input.kind === 'edit'
							? { kind: 'edit', at, note: input.note }
							: input.kind === 'reorder'
								? { kind: 'reorder', at: Math.min(at, Math.max(0, witnessed - 2)) }
								: ({ kind: input.kind, at } as Rewrite);
			return { honest, change, dropReceipts: input.dropReceipts };
		});

	it('the honest ledger passes both checks', () => {
		fc.assert(
			fc.property(scenario, ({ honest }) => {
				const receipts = checkReceipts(honest.events, signatureValid);
				expect(receipts.invalid).toEqual([]);
				expect(receipts.witnessedSeq).toBeGreaterThan(0);
				const comparison = compareWithServer(honest.events, honest.server);
				expect(comparison.firstDifference).toBeNull();
				expect(comparison.truncated).toBeNull();
			}),
			{ numRuns: 150 }
		);
	});

	it('against the server copy: the first rewritten event or the truncation is named', () => {
		fc.assert(
			fc.property(scenario, ({ honest, change, dropReceipts }) => {
				// With one witnessed event there is nothing to reorder inside the witnessed prefix
				// (swapping it with the unwitnessed receipt and dropping receipts is no rewrite).
				fc.pre(!(change.kind === 'reorder' && honest.server.length < 2));
				const forged = rewrite(honest.events, change, dropReceipts);
				const comparison = compareWithServer(forged.events, honest.server);
				const detected = comparison.firstDifference !== null || comparison.truncated !== null;
				expect(detected).toBe(true);
				if (comparison.firstDifference) {
					// Never later than the first event the forger touched.
					expect(comparison.firstDifference.seq).toBeLessThanOrEqual(forged.firstChanged);
				}
			}),
			{ numRuns: 400 }
		);
	});

	it('with the key alone: a rewritten event is never vouched for by a receipt', () => {
		fc.assert(
			fc.property(scenario, ({ honest, change, dropReceipts }) => {
				const forged = rewrite(honest.events, change, dropReceipts);
				const receipts = checkReceipts(forged.events, signatureValid);
				const flagged = receipts.invalid.length > 0;
				const vouchedBeyondChange = receipts.witnessedSeq >= forged.firstChanged;
				expect(flagged || !vouchedBeyondChange).toBe(true);
			}),
			{ numRuns: 400 }
		);
	});
});
