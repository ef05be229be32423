import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';
import { hashAuditEvent, hashTraceRecord, LedgerChain } from './ledger-chain.js';
import { genesisHash, type LedgerEvent, type LedgerEventDraft } from './ledger-event.js';
import { buildMutationDraft, fixtureUuid, steppingClock } from './ledger-test-fixtures.js';

/** An independent sha256 (Node's), so the chain is checked against more than itself. */
function nodeHash(text: string): string {
	return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

function lessonDraft(lesson: string): LedgerEventDraft {
	return {
		type: 'lesson-record',
		session_id: 's',
		intent_id: null,
		lesson,
		category: 'test',
		source: 'agent'
	};
}

describe('LedgerChain', () => {
	it('seals the first event against the genesis hash with the clock time', async () => {
		const chain = new LedgerChain({ clock: steppingClock() });
		const event = await chain.seal(lessonDraft('one'));
		expect(event.seq).toBe(1);
		expect(event.prev_hash).toBe(genesisHash);
		expect(event.timestamp).toBe('2026-11-21T12:00:00.000Z');
		const { hash, ...body } = event;
		expect(hash).toBe(nodeHash(genesisHash + canonicalJson(body)));
		expect(hash).toMatch(/^sha256:[0-9a-f]{64}$/);
	});

	it('seals a large batch (hashed with the synchronous hasher) exactly as one event at a time', async () => {
		const drafts: LedgerEventDraft[] = [];
		for (let index = 0; index < 40; index++) {
			drafts.push(
				index % 2
					? lessonDraft(`lesson ${index}`)
					: await buildMutationDraft({
							id: fixtureUuid(index + 1),
							path: `f${index}.ts`,
							before: null,
							after: `export const v = ${index};\n`
						})
			);
		}
		const batch = await new LedgerChain({ clock: steppingClock() }).sealAll(drafts);
		const single = new LedgerChain({ clock: steppingClock() });
		const oneByOne: LedgerEvent[] = [];
		for (const draft of drafts) oneByOne.push(await single.seal(draft));
		expect(batch).toEqual(oneByOne);
		for (const event of batch) expect(event.hash).toBe(await hashAuditEvent(event));
		for (const event of batch)
			if (event.type === 'mutation-record')
				expect(event.trace.metadata['dev.threadline'].hash).toBe(
					await hashTraceRecord(event.trace)
				);
	});

	it('links each event to the previous one', async () => {
		const chain = new LedgerChain({ clock: steppingClock() });
		const events = await chain.sealAll([lessonDraft('a'), lessonDraft('b'), lessonDraft('c')]);
		expect(events.map((event) => event.seq)).toEqual([1, 2, 3]);
		expect(events[1]?.prev_hash).toBe(events[0]?.hash);
		expect(events[2]?.prev_hash).toBe(events[1]?.hash);
		for (const event of events) expect(await hashAuditEvent(event)).toBe(event.hash);
		expect(chain.auditHead).toEqual({ seq: 3, hash: events[2]?.hash });
	});

	it('seals trace records into their own chain before the event', async () => {
		const chain = new LedgerChain({ clock: steppingClock() });
		const first = await buildMutationDraft({
			id: fixtureUuid(1),
			path: 'a.ts',
			before: null,
			after: 'x\n'
		});
		const second = await buildMutationDraft({
			id: fixtureUuid(2),
			path: 'a.ts',
			before: 'x\n',
			after: 'y\n'
		});
		const [one, , three] = (await chain.sealAll([first, lessonDraft('between'), second])) as [
			LedgerEvent,
			LedgerEvent,
			LedgerEvent
		];
		if (one.type !== 'mutation-record' || three.type !== 'mutation-record') {
			throw new Error('expected mutation records');
		}
		const firstLinks = one.trace.metadata['dev.threadline'];
		const secondLinks = three.trace.metadata['dev.threadline'];
		expect([firstLinks.seq, secondLinks.seq]).toEqual([1, 2]);
		expect(firstLinks.prev_hash).toBe(genesisHash);
		expect(secondLinks.prev_hash).toBe(firstLinks.hash);
		const { hash: _hash, ...linksWithoutHash } = secondLinks;
		const recordWithoutHash = {
			...three.trace,
			metadata: { ...three.trace.metadata, 'dev.threadline': linksWithoutHash }
		};
		expect(secondLinks.hash).toBe(nodeHash(firstLinks.hash + canonicalJson(recordWithoutHash)));
		expect(await hashTraceRecord(three.trace)).toBe(secondLinks.hash);
		// The event hash covers the sealed trace, links included.
		expect(await hashAuditEvent(three)).toBe(three.hash);
		expect(chain.traceHead).toEqual({ seq: 2, hash: secondLinks.hash });
	});

	it('keeps a correct chain under concurrent seals', async () => {
		const chain = new LedgerChain({ clock: steppingClock() });
		const events = await Promise.all(
			Array.from({ length: 40 }, (_, position) =>
				position % 3 === 0
					? buildMutationDraft({
							id: fixtureUuid(position + 1),
							path: `f${position}.ts`,
							before: null,
							after: `${position}\n`
						}).then((draft) => chain.seal(draft))
					: chain.seal(lessonDraft(String(position)))
			)
		);
		const ordered = [...events].sort((left, right) => left.seq - right.seq);
		expect(ordered.map((event) => event.seq)).toEqual(Array.from({ length: 40 }, (_, n) => n + 1));
		let previousHash = genesisHash;
		let previousTraceHash = genesisHash;
		let traceSeq = 0;
		for (const event of ordered) {
			expect(event.prev_hash).toBe(previousHash);
			expect(await hashAuditEvent(event)).toBe(event.hash);
			previousHash = event.hash;
			if (event.type === 'mutation-record') {
				const links = event.trace.metadata['dev.threadline'];
				expect(links.seq).toBe(++traceSeq);
				expect(links.prev_hash).toBe(previousTraceHash);
				previousTraceHash = links.hash;
			}
		}
		expect(traceSeq).toBe(14);
	});

	it('keeps a batch consecutive while other seals wait', async () => {
		const chain = new LedgerChain({ clock: steppingClock() });
		const batch = chain.sealAll([lessonDraft('a'), lessonDraft('b'), lessonDraft('c')]);
		const single = chain.seal(lessonDraft('d'));
		expect((await batch).map((event) => event.seq)).toEqual([1, 2, 3]);
		expect((await single).seq).toBe(4);
	});

	it('seals nothing of a batch that contains an unsealable draft', async () => {
		const chain = new LedgerChain({ clock: steppingClock() });
		await chain.seal(lessonDraft('ok'));
		const broken = { ...lessonDraft('bad'), extra: Number.NaN } as unknown as LedgerEventDraft;
		await expect(chain.sealAll([lessonDraft('fine'), broken])).rejects.toThrow(/NaN/);
		expect(chain.auditHead.seq).toBe(1);
		const next = await chain.seal(lessonDraft('after'));
		expect(next.seq).toBe(2);
	});

	it('undoes a batch whose persist step fails, and carries on', async () => {
		const chain = new LedgerChain({ clock: steppingClock() });
		await expect(
			chain.sealAll([lessonDraft('a')], () => {
				throw new Error('disk full');
			})
		).rejects.toThrow('disk full');
		expect(chain.auditHead).toEqual({ seq: 0, hash: genesisHash });
		expect((await chain.seal(lessonDraft('b'))).seq).toBe(1);
	});

	it('resumes both chains from stored events', async () => {
		const clock = steppingClock();
		const chain = new LedgerChain({ clock });
		const stored = await chain.sealAll([
			await buildMutationDraft({ id: fixtureUuid(1), path: 'a.ts', before: null, after: 'a\n' }),
			lessonDraft('x')
		]);
		const resumed = LedgerChain.fromEvents(clock, stored);
		const next = await resumed.seal(
			await buildMutationDraft({ id: fixtureUuid(2), path: 'a.ts', before: 'a\n', after: 'b\n' })
		);
		expect(next.seq).toBe(3);
		expect(next.prev_hash).toBe(stored[1]?.hash);
		if (next.type !== 'mutation-record' || stored[0]?.type !== 'mutation-record') {
			throw new Error('expected mutation records');
		}
		expect(next.trace.metadata['dev.threadline'].seq).toBe(2);
		expect(next.trace.metadata['dev.threadline'].prev_hash).toBe(
			stored[0].trace.metadata['dev.threadline'].hash
		);
	});

	it('resumes from explicit last event and trace', async () => {
		const chain = new LedgerChain({ clock: steppingClock() });
		const [event] = await chain.sealAll([
			await buildMutationDraft({ id: fixtureUuid(1), path: 'a.ts', before: null, after: 'a\n' })
		]);
		if (event?.type !== 'mutation-record') throw new Error('expected a mutation record');
		const resumed = new LedgerChain({
			clock: steppingClock(),
			lastEvent: event,
			lastTrace: event.trace
		});
		expect(resumed.auditHead).toEqual({ seq: 1, hash: event.hash });
		expect(resumed.traceHead).toEqual({
			seq: 1,
			hash: event.trace.metadata['dev.threadline'].hash
		});
	});

	it('stores a normalised copy: no undefined members, no aliasing with the draft', async () => {
		const chain = new LedgerChain({ clock: steppingClock() });
		const draft = {
			type: 'tool-decision',
			session_id: 's',
			tool: 't',
			tool_call_id: 'c',
			decision: 'allow',
			hooks: ['scope'],
			message: undefined
		} satisfies LedgerEventDraft;
		const event = await chain.seal(draft);
		draft.hooks.push('mutated later');
		expect(event).not.toHaveProperty('message');
		expect(event.type === 'tool-decision' && event.hooks).toEqual(['scope']);
		expect(await hashAuditEvent(event)).toBe(event.hash);
	});

	it('ignores chain fields a draft tries to bring along', async () => {
		const chain = new LedgerChain({ clock: steppingClock() });
		const forged = {
			...lessonDraft('x'),
			seq: 99,
			prev_hash: 'sha256:forged',
			hash: 'sha256:forged'
		} as unknown as LedgerEventDraft;
		const event = await chain.seal(forged);
		expect(event.seq).toBe(1);
		expect(event.prev_hash).toBe(genesisHash);
		expect(await hashAuditEvent(event)).toBe(event.hash);
	});

	it('hash helpers notice any change of content', async () => {
		const chain = new LedgerChain({ clock: steppingClock() });
		const event = await chain.seal(
			await buildMutationDraft({ id: fixtureUuid(1), path: 'a.ts', before: null, after: 'a\n' })
		);
		if (event.type !== 'mutation-record') throw new Error('expected a mutation record');
		const edited = structuredClone(event);
		edited.trace.files[0]!.path = 'b.ts';
		expect(await hashAuditEvent(edited)).not.toBe(event.hash);
		expect(await hashTraceRecord(edited.trace)).not.toBe(
			event.trace.metadata['dev.threadline'].hash
		);
	});
});
