import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { crypto as sigstoreCrypto, dsse } from '@sigstore/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeDsseBase64, preAuthEncoding, signEnvelope, verifyEnvelope } from './dsse.js';

/** Independent implementations: sigstore-js's DSSE PAE and signature check. */
const sigstorePreAuthEncoding = dsse.preAuthEncoding;
const sigstoreVerify = sigstoreCrypto.verify;

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const other = generateKeyPairSync('ed25519');
const signer = {
	keyid: 'test',
	sign: (message: Uint8Array) => new Uint8Array(sign(null, message, privateKey))
};
const check =
	(key = publicKey) =>
	(message: Uint8Array, signature: Uint8Array) =>
		verify(null, message, key, signature);

describe('DSSE', () => {
	it('PAE is the specification’s example and sigstore’s encoding, byte for byte', () => {
		// The DSSE protocol's own example.
		expect(
			new TextDecoder().decode(
				preAuthEncoding('http://example.com/HelloWorld', new TextEncoder().encode('hello world'))
			)
		).toBe('DSSEv1 29 http://example.com/HelloWorld 11 hello world');
		fc.assert(
			fc.property(
				fc.string({ unit: 'grapheme' }),
				fc.uint8Array({ maxLength: 300 }),
				(type, payload) => {
					expect(Buffer.from(preAuthEncoding(type, payload))).toEqual(
						sigstorePreAuthEncoding(type, Buffer.from(payload))
					);
				}
			)
		);
	});

	it('an envelope signed here verifies with sigstore’s verifier and with ours; any change fails both', async () => {
		const payload = new TextEncoder().encode('{"_type":"https://in-toto.io/Statement/v1","é":"ü"}');
		const envelope = await signEnvelope('application/vnd.in-toto+json', payload, signer);
		const signature = Buffer.from(envelope.signatures[0]?.sig ?? '', 'base64');
		const pae = sigstorePreAuthEncoding(
			envelope.payloadType,
			Buffer.from(envelope.payload, 'base64')
		);
		expect(sigstoreVerify(pae, publicKey, signature)).toBe(true);
		expect(verifyEnvelope(envelope, check()).ok).toBe(true);
		// The same signature under another type, another payload or another key is refused.
		expect(verifyEnvelope({ ...envelope, payloadType: 'application/json' }, check()).ok).toBe(
			false
		);
		const changed = Buffer.from(payload);
		changed[3] = 0x41;
		expect(verifyEnvelope({ ...envelope, payload: changed.toString('base64') }, check()).ok).toBe(
			false
		);
		expect(verifyEnvelope(envelope, check(other.publicKey)).ok).toBe(false);
		expect(
			sigstoreVerify(
				sigstorePreAuthEncoding('application/json', Buffer.from(payload)),
				publicKey,
				signature
			)
		).toBe(false);
	});

	it('reads URL-safe and unpadded base64 (DSSE allows both) and refuses what is neither', () => {
		const bytes = new Uint8Array([251, 255, 191, 0, 1]);
		const standard = Buffer.from(bytes).toString('base64');
		expect(decodeDsseBase64(standard)).toEqual(bytes);
		expect(decodeDsseBase64(Buffer.from(bytes).toString('base64url'))).toEqual(bytes);
		for (const bad of ['a', 'ab$c', 'ab c', '====', 'abcd=e'])
			expect(decodeDsseBase64(bad), bad).toBeNull();
	});

	it('checks at most maximumSignatures signatures', async () => {
		const envelope = await signEnvelope('t', new Uint8Array([1]), signer);
		let checked = 0;
		const counting = () => (checked++, false);
		const many = {
			...envelope,
			signatures: Array.from({ length: 10_000 }, () => envelope.signatures[0])
		};
		const result = verifyEnvelope(many, counting);
		expect(result.ok === false && result.problem).toContain('at most 16 are checked');
		expect(checked).toBe(0);
	});

	it('refuses envelopes with missing or mistyped fields, naming what is wrong', () => {
		for (const value of [
			null,
			[],
			'x',
			{},
			{ payloadType: 'a' },
			{ payloadType: 'a', payload: 'AAAA' },
			{ payloadType: 'a', payload: 'AAAA', signatures: [] },
			{ payloadType: 'a', payload: 'AAAA', signatures: [{ sig: 5 }] }
		]) {
			const result = verifyEnvelope(value, check());
			expect(result.ok).toBe(false);
			if (!result.ok) expect(result.problem).toMatch(/envelope|payload|signature/);
		}
	});
});
