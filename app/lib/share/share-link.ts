import { deflateSync, Inflate, strFromU8, strToU8 } from 'fflate';
import { sha256Hex } from '../../../hooks/hashing/sha256.js';
import { shareDictionary } from './share-dictionary.js';
import {
	validateScenarioBundle,
	type ScenarioBundleValidation
} from '../../../hooks/scenarios/scenario-bundle.js';
import type { ScenarioBundle } from '../../../hooks/scenarios/scenario-schema.js';
import { concatenateBytes } from '../../../hooks/bytes/concatenate-bytes.js';

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

export function shareUrl(
	base: string,
	bundle: ScenarioBundle,
	options: {
		/**
		 * The `.orchestration/` files of "Export .orchestration" by name, only when the person
		 * asked to share the history: the recipient's IDE rebuilds the export from them and the
		 * link's files, verifies it and opens the workspace with it, as Import zip does.
		 */
		history?: Readonly<Record<string, string>>;
	} = {}
): ShareLinkResult {
	// The workspace, not its demo agent: a shared link is for people to work in.
	const json = JSON.stringify({
		manifest: bundle.manifest,
		files: bundle.files,
		demo: null,
		...(options.history ? { history: options.history } : {})
	});
	const payload = toBase64Url(
		deflateSync(strToU8(json), { level: 9, mem: 12, dictionary: shareDictionary })
	);
	const url = `${base.split('#')[0]}${shareFragmentPrefix}${payload}`;
	if (url.length > maximumShareUrlLength) {
		return {
			ok: false,
			length: url.length,
			message: options.history
				? `This workspace with its history is too large for a link (${Math.ceil(url.length / 1024)} KB of URL; at most ${maximumShareUrlLength / 1024} KB). Share it without the history, or send the “Export .orchestration” zip (Trace tab) instead.`
				: `This workspace is too large for a link (${Math.ceil(url.length / 1024)} KB of URL; at most ${maximumShareUrlLength / 1024} KB). Use “Edit scenario” → “Export scenario” and share the zip instead.`
		};
	}
	return { ok: true, url, length: url.length };
}

export type OpenShareResult =
	| {
			ok: true;
			bundle: ScenarioBundle;
			fingerprint: string;
			history?: Record<string, string>;
	  }
	| { ok: false; error: string };

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
	// The history (an export zip) is checked when it is imported, like any zip; the rest is a bundle.
	let history: Record<string, string> | undefined;
	if (value && typeof value === 'object' && 'history' in value) {
		const { history: carried, ...rest } = value as { history: unknown };
		history = historyFiles(carried) ?? undefined;
		if (!history)
			return {
				ok: false,
				error: 'This share link is damaged (its history is not a set of .orchestration files).'
			};
		value = rest;
	}
	const checked: ScenarioBundleValidation = validateScenarioBundle(value);
	if (!checked.ok)
		return {
			ok: false,
			error: `This share link is not a valid scenario: ${checked.errors.slice(0, 5).join('; ')}`
		};
	// Each distinct shared workspace opens in its own saved workspace: nothing is overwritten.
	const fingerprint = (await sha256Hex(payload)).slice(0, 12);
	return { ok: true, bundle: checked.bundle, fingerprint, ...(history ? { history } : {}) };
}

/** `.orchestration/` file names and their text; anything else is not a history. */
function historyFiles(value: unknown): Record<string, string> | null {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
	const entries = Object.entries(value);
	if (entries.length === 0 || entries.length > 20) return null;
	const files: Record<string, string> = {};
	for (const [name, text] of entries) {
		if (!/^[A-Za-z0-9_.-]{1,100}$/.test(name) || name.startsWith('.') || typeof text !== 'string')
			return null;
		files[name] = text;
	}
	return files;
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
	return concatenateBytes(chunks);
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
