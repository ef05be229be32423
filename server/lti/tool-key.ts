import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
	calculateJwkThumbprint,
	exportJWK,
	exportPKCS8,
	generateKeyPair,
	importPKCS8,
	importSPKI,
	type JWK,
	type CryptoKey
} from 'jose';
import { createPublicKey } from 'node:crypto';

export const toolKeyFileName = 'lti-tool-key.pem';

/** Threadline's own RSA key: signs client assertions and Deep Linking responses. */
export interface ToolKey {
	privateKey: CryptoKey;
	kid: string;
	publicJwk: JWK;
}

/**
 * Loads the tool key from the data folder, or creates it (mode 0600) at first start. Every
 * instance must share it: platforms cache the tool's JWKS.
 */
export async function loadOrCreateToolKey(dataDirectory: string): Promise<ToolKey> {
	const path = join(dataDirectory, toolKeyFileName);
	let pem: string;
	if (existsSync(path)) {
		pem = readFileSync(path, 'utf8');
	} else {
		const pair = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
		pem = await exportPKCS8(pair.privateKey);
		writeFileSync(path, pem, { mode: 0o600, flag: 'wx' });
	}
	return toolKeyFromPem(pem);
}

export async function toolKeyFromPem(pem: string): Promise<ToolKey> {
	const privateKey = await importPKCS8(pem, 'RS256');
	const publicPem = createPublicKey(pem).export({ type: 'spki', format: 'pem' }).toString();
	const jwk = await exportJWK(await importSPKI(publicPem, 'RS256', { extractable: true }));
	const kid = await calculateJwkThumbprint(jwk);
	return { privateKey, kid, publicJwk: { ...jwk, kid, alg: 'RS256', use: 'sig' } };
}
