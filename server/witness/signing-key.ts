import {
	createPrivateKey,
	createPublicKey,
	generateKeyPairSync,
	type KeyObject
} from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface SigningKey {
	privateKey: KeyObject;
	/** The raw 32-byte Ed25519 public key, base64 (what GET /api/class/key publishes). */
	publicKeyBase64: string;
}

export const signingKeyFileName = 'class-signing-key.pem';

/**
 * The class's Ed25519 signing key, kept in `folder` (mode 0600) and generated at first start.
 * The file is created exclusively, so two instances starting together end up with one key.
 */
export async function loadOrCreateSigningKey(folder: string): Promise<SigningKey> {
	await mkdir(folder, { recursive: true, mode: 0o700 });
	const path = join(folder, signingKeyFileName);
	const existing = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
		if (error.code === 'ENOENT') return null;
		throw error;
	});
	if (existing !== null) return signingKeyFromPem(existing);
	const { privateKey } = generateKeyPairSync('ed25519');
	const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
	try {
		await writeFile(path, pem, { mode: 0o600, flag: 'wx' });
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
			return signingKeyFromPem(await readFile(path, 'utf8'));
		}
		throw error;
	}
	// The umask may have narrowed the mode already; never let it widen it.
	await chmod(path, 0o600);
	return signingKeyFromPem(pem);
}

export function signingKeyFromPem(pem: string): SigningKey {
	const privateKey = createPrivateKey(pem);
	if (privateKey.asymmetricKeyType !== 'ed25519') {
		throw new Error(`the class signing key must be Ed25519, not ${privateKey.asymmetricKeyType}`);
	}
	return { privateKey, publicKeyBase64: rawPublicKeyBase64(createPublicKey(privateKey)) };
}

/** SPKI DER of an Ed25519 key is a fixed 12-byte header and the 32 raw bytes. */
const spkiHeader = Buffer.from('302a300506032b6570032100', 'hex');

export function rawPublicKeyBase64(publicKey: KeyObject): string {
	const der = publicKey.export({ format: 'der', type: 'spki' });
	return der.subarray(spkiHeader.length).toString('base64');
}

/** A public key object from the raw 32 bytes (base64), or an error saying what is wrong. */
export function publicKeyFromBase64(base64: string): KeyObject {
	const raw = Buffer.from(base64.trim(), 'base64');
	if (raw.length !== 32) {
		throw new Error(`an Ed25519 public key is 32 bytes; this one is ${raw.length}`);
	}
	return createPublicKey({ key: Buffer.concat([spkiHeader, raw]), format: 'der', type: 'spki' });
}
