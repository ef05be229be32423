import { sign, type KeyObject } from 'node:crypto';
import { checkpointBody, ed25519KeyId, formatSignedNote } from '../../hooks/witness/signed-note.js';

/**
 * The class log's origin (checkpoint first line) and the signing key's name in its signed notes:
 * `threadline/<class id>`, with anything a note key name may not hold (whitespace, '+') replaced.
 */
export function classLogOrigin(classId: string): string {
	return `threadline/${classId.replace(/[\s+]/gu, '_')}`;
}

/** A C2SP checkpoint for the log at `size` with `root` (base64), signed with the class key. */
export function signCheckpoint(
	origin: string,
	size: number,
	root: string,
	privateKey: KeyObject,
	publicKeyBase64: string
): string {
	const body = checkpointBody({ origin, size, root: new Uint8Array(Buffer.from(root, 'base64')) });
	const signature = new Uint8Array(sign(null, Buffer.from(body, 'utf8'), privateKey));
	const keyId = ed25519KeyId(origin, new Uint8Array(Buffer.from(publicKeyBase64, 'base64')));
	return formatSignedNote(body, [{ name: origin, keyId, signature }]);
}
