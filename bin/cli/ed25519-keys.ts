import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { UsageError } from './usage-error.js';

/** The DER header of an Ed25519 SubjectPublicKeyInfo; the 32 key bytes follow. */
const ed25519SpkiPrefix = Buffer.from('302a300506032b6570032100', 'hex');
/** A key file is a few hundred bytes; anything larger is not one. */
const maximumKeyFileBytes = 16 * 1024;

async function readKeyFile(path: string): Promise<string> {
	const info = await stat(path).catch(() => null);
	if (!info?.isFile()) throw new UsageError(`${path} is not a key file`);
	if (info.size > maximumKeyFileBytes)
		throw new UsageError(`${path} is too large to be a key file`);
	return readFile(path, 'utf8');
}

function requireEd25519(key: KeyObject, source: string): KeyObject {
	if (key.asymmetricKeyType !== 'ed25519')
		throw new UsageError(
			`${source} is a ${key.asymmetricKeyType ?? 'non-asymmetric'} key; an Ed25519 key is needed`
		);
	return key;
}

/** An Ed25519 private key from a PEM file (PKCS#8, as `openssl genpkey -algorithm ed25519` writes). */
export async function readSigningKey(path: string): Promise<KeyObject> {
	const text = await readKeyFile(path);
	try {
		return requireEd25519(createPrivateKey(text), path);
	} catch (error) {
		if (error instanceof UsageError) throw error;
		throw new UsageError(`${path} is not a PEM private key: ${(error as Error).message}`);
	}
}

/**
 * A public key given as a PEM file (public, or private: its public half), or as the base64 of the
 * 32 raw bytes (how the class server publishes its key).
 */
export async function readVerifyingKey(keyOrPath: string): Promise<KeyObject> {
	const raw = /^[A-Za-z0-9+/]{43}=$/.test(keyOrPath) ? Buffer.from(keyOrPath, 'base64') : null;
	if (raw?.length === 32)
		return createPublicKey({
			key: Buffer.concat([ed25519SpkiPrefix, raw]),
			format: 'der',
			type: 'spki'
		});
	const text = await readKeyFile(keyOrPath);
	try {
		return requireEd25519(createPublicKey(text), keyOrPath);
	} catch (error) {
		if (error instanceof UsageError) throw error;
		throw new UsageError(`${keyOrPath} is not a PEM key: ${(error as Error).message}`);
	}
}

/** The base64 of the 32 raw public key bytes: the DSSE keyid, the same form as the class key. */
export function publicKeyId(key: KeyObject): string {
	const der = createPublicKey(key).export({ format: 'der', type: 'spki' });
	return der.subarray(ed25519SpkiPrefix.length).toString('base64');
}

export function ed25519Sign(key: KeyObject, message: Uint8Array): Uint8Array {
	return new Uint8Array(sign(null, message, key));
}

export function ed25519Verify(key: KeyObject, message: Uint8Array, signature: Uint8Array): boolean {
	try {
		return verify(null, message, key, signature);
	} catch {
		return false;
	}
}
