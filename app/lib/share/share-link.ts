import { deflateSync, Inflate, strFromU8, strToU8 } from 'fflate';
import { sha256Hex } from '../../../hooks/hashing/sha256.js';
import { shareDictionary } from './share-dictionary.js';
import {
	validateScenarioBundle,
	type ScenarioBundleValidation
} from '../../../hooks/scenarios/scenario-bundle.js';
import type { ScenarioBundle } from '../../../hooks/scenarios/scenario-schema.js';

/**
 * A share link carries a whole scenario (files, intents, brief, hook policy; never an API key, and
 * no ledger) in the URL fragment, which browsers do not send to any server. The payload is the
 * scenario bundle as JSON, deflated and base64url-encoded. Opening one is loading an untrusted
 * scenario: sizes are capped before and while inflating, then the bundle is validated exactly as a
 * remote one.
 */
export const shareFragmentPrefix = '#share=v1.';
/** Longer links break in chat apps, mail clients and some proxies: export a zip instead. */
export const maximumShareUrlLength = 32 * 1024;
/** A deflate bomb stops here, long before it could fill memory. */
export const maximumInflatedBytes = 4 * 1024 * 1024;

export type ShareLinkResult =
	{ ok: true; url: string; length: number } | { ok: false; length: number; message: string };

export function shareUrl(base: string, bundle: ScenarioBundle): ShareLinkResult {
	// The workspace, not its demo agent: a shared link is for people to work in.
	const json = JSON.stringify({ manifest: bundle.manifest, files: bundle.files, demo: null });
	const payload = toBase64Url(
		deflateSync(strToU8(json), { level: 9, mem: 12, dictionary: shareDictionary })
	);
	const url = `${base.split('#')[0]}${shareFragmentPrefix}${payload}`;
	if (url.length > maximumShareUrlLength) {
		return {
			ok: false,
			length: url.length,
			message: `This workspace is too large for a link (${Math.ceil(url.length / 1024)} KB of URL; at most ${maximumShareUrlLength / 1024} KB). Use “Edit scenario” → “Export scenario” and share the zip instead.`
		};
	}
	return { ok: true, url, length: url.length };
}

export type OpenShareResult =
	{ ok: true; bundle: ScenarioBundle; fingerprint: string } | { ok: false; error: string };

/** `null` when the fragment is not a share link at all. */
export async function openShareFragment(fragment: string): Promise<OpenShareResult | null> {
	if (!fragment.startsWith(shareFragmentPrefix)) return null;
	const payload = fragment.slice(shareFragmentPrefix.length);
	if (payload.length > maximumShareUrlLength)
		return { ok: false, error: 'This share link is longer than any Threadline makes.' };
	if (!/^[A-Za-z0-9_-]*$/.test(payload))
		return {
			ok: false,
			error: 'This share link is damaged (it holds characters a link never has).'
		};
	let json: string;
	try {
		json = strFromU8(inflateCapped(fromBase64Url(payload)));
	} catch (error) {
		return {
			ok: false,
			error: `This share link cannot be read: ${error instanceof Error ? error.message : String(error)}. Ask for a new link or a zip.`
		};
	}
	let value: unknown;
	try {
		value = JSON.parse(json);
	} catch {
		return { ok: false, error: 'This share link is damaged (its content is not a scenario).' };
	}
	const checked: ScenarioBundleValidation = validateScenarioBundle(value);
	if (!checked.ok)
		return {
			ok: false,
			error: `This share link is not a valid scenario: ${checked.errors.slice(0, 5).join('; ')}`
		};
	// Each distinct shared workspace opens in its own saved workspace: nothing is overwritten.
	const fingerprint = (await sha256Hex(payload)).slice(0, 12);
	return { ok: true, bundle: checked.bundle, fingerprint };
}

function inflateCapped(data: Uint8Array): Uint8Array {
	const chunks: Uint8Array[] = [];
	let total = 0;
	let finished = false;
	const inflater = new Inflate({ dictionary: shareDictionary }, (chunk, final) => {
		total += chunk.length;
		if (total > maximumInflatedBytes)
			throw new Error(`it unpacks to more than ${maximumInflatedBytes / (1024 * 1024)} MB`);
		chunks.push(chunk);
		if (final) finished = true;
	});
	// Small pieces, so the cap is checked as the output grows, not after.
	for (let offset = 0; offset < data.length; offset += 1024)
		inflater.push(data.subarray(offset, offset + 1024), offset + 1024 >= data.length);
	if (data.length === 0 || !finished) throw new Error('it is cut short');
	const out = new Uint8Array(total);
	let position = 0;
	for (const chunk of chunks) {
		out.set(chunk, position);
		position += chunk.length;
	}
	return out;
}

function toBase64Url(bytes: Uint8Array): string {
	let binary = '';
	for (let index = 0; index < bytes.length; index += 0x8000)
		binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
	return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
	const base64 = text.replaceAll('-', '+').replaceAll('_', '/');
	const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
	const binary = atob(padded);
	return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}
