import { createHash, generateKeyPairSync, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
	checkpointBody,
	ed25519KeyId,
	formatSignedNote,
	noteSignedBy,
	parseCheckpointNote,
	type VerifySignature
} from './signed-note.js';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const rawPublic = new Uint8Array(publicKey.export({ format: 'der', type: 'spki' }).subarray(12));
const verifyPort: VerifySignature = (message, signature, key) =>
	verify(
		null,
		message,
		{
			key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), key]),
			format: 'der',
			type: 'spki'
		},
		signature
	);
const root = new Uint8Array(32).fill(7);
const name = 'threadline/class-1';

function note(body = checkpointBody({ origin: name, size: 42, root })): string {
	const signature = new Uint8Array(sign(null, Buffer.from(body, 'utf8'), privateKey));
	return formatSignedNote(body, [{ name, keyId: ed25519KeyId(name, rawPublic), signature }]);
}

describe('signed note', () => {
	it('formats the C2SP layout and verifies with the computed key id', () => {
		const text = note();
		expect(text).toBe(
			`${name}\n42\n${Buffer.from(root).toString('base64')}\n\n\u2014 ${name} ${text.split(' ').at(-1)}`
		);
		const expectedId = createHash('sha256')
			.update(Buffer.concat([Buffer.from(`${name}\n`), Buffer.of(1), rawPublic]))
			.digest()
			.subarray(0, 4);
		expect(Buffer.from(ed25519KeyId(name, rawPublic))).toEqual(expectedId);
		const parsed = parseCheckpointNote(text);
		if (parsed instanceof Error) throw parsed;
		expect(parsed.checkpoint.size).toBe(42);
		expect(noteSignedBy(parsed, name, rawPublic, verifyPort)).toBe(true);
	});

	it('fails a changed size, root, name, key or key id', () => {
		const text = note();
		const changed = parseCheckpointNote(text.replace('\n42\n', '\n43\n'));
		if (changed instanceof Error) throw changed;
		expect(noteSignedBy(changed, name, rawPublic, verifyPort)).toBe(false);
		const parsed = parseCheckpointNote(text) as Exclude<
			ReturnType<typeof parseCheckpointNote>,
			Error
		>;
		expect(noteSignedBy(parsed, 'threadline/other', rawPublic, verifyPort)).toBe(false);
		const other = generateKeyPairSync('ed25519')
			.publicKey.export({ format: 'der', type: 'spki' })
			.subarray(12);
		expect(noteSignedBy(parsed, name, new Uint8Array(other), verifyPort)).toBe(false);
		const wrongId = {
			...parsed,
			signatures: parsed.signatures.map((entry) => ({ ...entry, keyId: Uint8Array.of(0, 0, 0, 0) }))
		};
		expect(noteSignedBy(wrongId, name, rawPublic, verifyPort)).toBe(false);
	});

	it('parses strictly', () => {
		const text = note();
		for (const bad of [
			text.replace('\n42\n', '\n042\n'),
			text.replace('\n42\n', '\n-1\n'),
			text.replace('\n\n', '\nextension\n\n'),
			text.replace('\u2014', '-'),
			text.slice(0, -1),
			text.split('\n\n')[0] as string,
			`${name}\n42\n${Buffer.from(new Uint8Array(31)).toString('base64')}\n\n${text.split('\n\n')[1]}`
		])
			expect(parseCheckpointNote(bad)).toBeInstanceOf(Error);
	});
});
