import { jsSha256Hex } from '../hashing/js-sha256.js';
import { encodeText } from '../hashing/text-encoding.js';
import {
	base64ToBytes,
	bytesToBase64,
	isValidBase64
} from '../scenarios/scenario-file-encoding.js';

/**
 * C2SP signed notes (c2sp.org/signed-note) carrying C2SP checkpoints (c2sp.org/tlog-checkpoint):
 * the class log's signed tree heads. A checkpoint's text is
 *
 *     <origin>\n<tree size>\n<base64 root hash>\n
 *
 * then an empty line, then one signature line per signer: `— <key name> <base64(key id ‖ sig)>\n`
 * (U+2014, a space). For Ed25519 the key id is the first 4 bytes of
 * SHA-256(key name ‖ 0x0A ‖ 0x01 ‖ 32-byte public key) and the signature (64 bytes) is over the
 * text before the empty line. Signature checks go through an injected port (`VerifySignature`):
 * hooks has no crypto of its own; the CLI passes node:crypto.
 */
export interface Checkpoint {
	origin: string;
	size: number;
	/** The 32-byte root hash. */
	root: Uint8Array;
}

export interface NoteSignature {
	name: string;
	/** 4 bytes. */
	keyId: Uint8Array;
	/** The rest of the signature blob (64 bytes for Ed25519). */
	signature: Uint8Array;
}

export interface ParsedNote {
	checkpoint: Checkpoint;
	/** The signed text (the checkpoint's lines, with their final newline). */
	body: string;
	signatures: NoteSignature[];
}

/** (message, signature, public key) → whether the Ed25519 signature is valid. */
export type VerifySignature = (
	message: Uint8Array,
	signature: Uint8Array,
	publicKey: Uint8Array
) => boolean;

const ed25519SignatureType = 0x01;
const signatureLinePrefix = '\u2014 ';

function sha256Bytes(bytes: Uint8Array): Uint8Array {
	const hex = jsSha256Hex(bytes);
	const out = new Uint8Array(32);
	for (let index = 0; index < 32; index++)
		out[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
	return out;
}

/** A key name is non-empty, without whitespace or '+' (the note spec's rule). */
export function validKeyName(name: string): boolean {
	return name.length > 0 && !/[\s+]/u.test(name);
}

/** The Ed25519 key id: SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key)[0:4]. */
export function ed25519KeyId(name: string, publicKey: Uint8Array): Uint8Array {
	const nameBytes = encodeText(name);
	const input = new Uint8Array(nameBytes.length + 2 + publicKey.length);
	input.set(nameBytes, 0);
	input[nameBytes.length] = 0x0a;
	input[nameBytes.length + 1] = ed25519SignatureType;
	input.set(publicKey, nameBytes.length + 2);
	return sha256Bytes(input).slice(0, 4);
}

/** The checkpoint's signed text. */
export function checkpointBody(checkpoint: Checkpoint): string {
	if (checkpoint.origin.length === 0 || checkpoint.origin.includes('\n'))
		throw new Error('a checkpoint origin is one non-empty line');
	if (checkpoint.root.length !== 32) throw new Error('a checkpoint root is 32 bytes');
	return `${checkpoint.origin}\n${checkpoint.size}\n${bytesToBase64(checkpoint.root)}\n`;
}

/** The note: its body, an empty line, one line per signature. */
export function formatSignedNote(body: string, signatures: readonly NoteSignature[]): string {
	const lines = signatures.map((entry) => {
		if (!validKeyName(entry.name))
			throw new Error(`invalid key name ${JSON.stringify(entry.name)}`);
		const blob = new Uint8Array(entry.keyId.length + entry.signature.length);
		blob.set(entry.keyId, 0);
		blob.set(entry.signature, entry.keyId.length);
		return `${signatureLinePrefix}${entry.name} ${bytesToBase64(blob)}\n`;
	});
	return `${body}\n${lines.join('')}`;
}

/**
 * A checkpoint note, parsed strictly: exactly the three checkpoint lines (no extension lines),
 * a decimal size without leading zeros, a 32-byte base64 root, at least one well-formed
 * signature line, nothing after the last newline. An Error says what is wrong.
 */
export function parseCheckpointNote(text: string): ParsedNote | Error {
	if (text.length > 64 * 1024) return new Error('the checkpoint is longer than 64 KiB');
	const split = text.indexOf('\n\n');
	if (split < 0) return new Error('the note has no empty line before its signatures');
	const body = text.slice(0, split + 1);
	const signatureText = text.slice(split + 2);
	const lines = body.slice(0, -1).split('\n');
	if (lines.length !== 3)
		return new Error(`a checkpoint has 3 lines (origin, size, root); this one has ${lines.length}`);
	const [origin, sizeText, rootText] = lines as [string, string, string];
	if (origin.length === 0) return new Error('the checkpoint has no origin');
	if (!/^(0|[1-9][0-9]{0,15})$/u.test(sizeText) || !Number.isSafeInteger(Number(sizeText)))
		return new Error(`the checkpoint size ${JSON.stringify(sizeText)} is not a decimal number`);
	if (!isValidBase64(rootText)) return new Error('the checkpoint root is not base64');
	const root = base64ToBytes(rootText);
	if (root.length !== 32) return new Error('the checkpoint root is not 32 bytes');
	if (!signatureText.endsWith('\n')) return new Error('the note does not end with a newline');
	const signatures: NoteSignature[] = [];
	for (const line of signatureText.slice(0, -1).split('\n')) {
		if (!line.startsWith(signatureLinePrefix))
			return new Error('a signature line starts with "— " (U+2014, then a space)');
		const parts = line.slice(signatureLinePrefix.length).split(' ');
		if (parts.length !== 2) return new Error('a signature line is "— <key name> <base64>"');
		const [name, blobText] = parts as [string, string];
		if (!validKeyName(name)) return new Error(`invalid key name ${JSON.stringify(name)}`);
		if (!isValidBase64(blobText)) return new Error('a signature is not base64');
		const blob = base64ToBytes(blobText);
		if (blob.length < 5) return new Error('a signature is shorter than its key id');
		signatures.push({ name, keyId: blob.slice(0, 4), signature: blob.slice(4) });
	}
	if (signatures.length === 0) return new Error('the note has no signature');
	return { checkpoint: { origin, size: Number(sizeText), root }, body, signatures };
}

/**
 * Whether the note carries a valid Ed25519 signature by `publicKey` under `name` (the key id
 * computed, not trusted from the line). Other signers' lines (cosigners) are ignored here.
 */
export function noteSignedBy(
	note: ParsedNote,
	name: string,
	publicKey: Uint8Array,
	verify: VerifySignature
): boolean {
	const keyId = ed25519KeyId(name, publicKey);
	const message = encodeText(note.body);
	return note.signatures.some(
		(entry) =>
			entry.name === name &&
			entry.signature.length === 64 &&
			entry.keyId.every((byte, index) => byte === keyId[index]) &&
			verify(message, entry.signature, publicKey)
	);
}
