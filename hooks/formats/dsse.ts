import { base64ToBytes, bytesToBase64 } from '../scenarios/scenario-file-encoding.js';

/**
 * DSSE (Dead Simple Signing Envelope, secure-systems-lab/dsse, protocol v1): a payload, its type
 * and signatures over the pre-authentication encoding (PAE) of both, so a signature for one type
 * can never be read as one for another. hooks/ has no crypto of its own: the signer and the
 * verifier are injected (the CLI passes node:crypto's Ed25519).
 */

export interface DsseSignature {
	keyid?: string;
	/** Base64 of the signature over PAE(payloadType, payload). */
	sig: string;
}

export interface DsseEnvelope {
	payloadType: string;
	/** Base64 of the serialized payload. */
	payload: string;
	signatures: DsseSignature[];
}

/** Signs a message (the PAE bytes); `keyid` names the key, as the verifier will look it up. */
export interface DsseSigner {
	keyid: string;
	sign(message: Uint8Array): Uint8Array | Promise<Uint8Array>;
}

/** True when `signature` over `message` is valid for the verifier's key. */
export type DsseVerify = (
	message: Uint8Array,
	signature: Uint8Array,
	keyid: string | undefined
) => boolean;

const encoder = new TextEncoder();

/** Each signature costs a verification: a hostile envelope must not make us run a million. */
export const maximumSignatures = 16;

/** PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body; LEN in bytes, ASCII decimal. */
export function preAuthEncoding(payloadType: string, payload: Uint8Array): Uint8Array {
	const type = encoder.encode(payloadType);
	const head = encoder.encode(`DSSEv1 ${type.length} `);
	const middle = encoder.encode(` ${payload.length} `);
	const result = new Uint8Array(head.length + type.length + middle.length + payload.length);
	result.set(head, 0);
	result.set(type, head.length);
	result.set(middle, head.length + type.length);
	result.set(payload, head.length + type.length + middle.length);
	return result;
}

export async function signEnvelope(
	payloadType: string,
	payload: Uint8Array,
	signer: DsseSigner
): Promise<DsseEnvelope> {
	const signature = await signer.sign(preAuthEncoding(payloadType, payload));
	return {
		payloadType,
		payload: bytesToBase64(payload),
		signatures: [{ keyid: signer.keyid, sig: bytesToBase64(signature) }]
	};
}

/** Standard or URL-safe base64, padded or not (DSSE allows either); null when it is neither. */
export function decodeDsseBase64(text: string): Uint8Array | null {
	if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) return null;
	const standard = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
	if (standard.length % 4 === 1) return null;
	try {
		return base64ToBytes(standard.padEnd(Math.ceil(standard.length / 4) * 4, '='));
	} catch {
		return null;
	}
}

export type EnvelopeCheck =
	| { ok: true; payloadType: string; payload: Uint8Array; validSignatures: number }
	| { ok: false; problem: string };

/**
 * Reads an untrusted envelope and checks its signatures with `verify`: valid when at least one
 * signature verifies over PAE(payloadType, payload). Every field is checked for its type first.
 */
export function verifyEnvelope(value: unknown, verify: DsseVerify): EnvelopeCheck {
	if (typeof value !== 'object' || value === null || Array.isArray(value))
		return { ok: false, problem: 'the envelope is not a JSON object' };
	const envelope = value as Record<string, unknown>;
	if (typeof envelope.payloadType !== 'string' || envelope.payloadType === '')
		return { ok: false, problem: 'the envelope has no payloadType' };
	if (typeof envelope.payload !== 'string')
		return { ok: false, problem: 'the envelope has no payload' };
	const payload = decodeDsseBase64(envelope.payload);
	if (payload === null) return { ok: false, problem: 'the payload is not base64' };
	if (!Array.isArray(envelope.signatures) || envelope.signatures.length === 0)
		return { ok: false, problem: 'the envelope has no signatures' };
	if (envelope.signatures.length > maximumSignatures)
		return {
			ok: false,
			problem: `the envelope has ${envelope.signatures.length} signatures; at most ${maximumSignatures} are checked`
		};
	const message = preAuthEncoding(envelope.payloadType, payload);
	let validSignatures = 0;
	for (const entry of envelope.signatures as unknown[]) {
		if (typeof entry !== 'object' || entry === null) continue;
		const { sig, keyid } = entry as Record<string, unknown>;
		if (typeof sig !== 'string') continue;
		const signature = decodeDsseBase64(sig);
		if (signature === null) continue;
		if (verify(message, signature, typeof keyid === 'string' ? keyid : undefined))
			validSignatures++;
	}
	if (validSignatures === 0)
		return { ok: false, problem: 'no signature in the envelope verifies with the given key' };
	return { ok: true, payloadType: envelope.payloadType, payload, validSignatures };
}
