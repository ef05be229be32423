import {
	scenarioLimits,
	validateScenarioBundle
} from '../../../hooks/scenarios/scenario-bundle.js';
import {
	scenarioIndexSchema,
	type ScenarioIndexEntry
} from '../../../hooks/scenarios/scenario-index.js';
import { formatScenarioProblem } from '../../../hooks/scenarios/scenario-problem.js';
import { isScenarioId, type ScenarioBundle } from '../../../hooks/scenarios/scenario-schema.js';
import { readScenarioZip } from '../../../hooks/scenarios/scenario-zip.js';
import { fetchBytes, megabytes, type FetchErrorKind, type Fetcher } from './fetch-bytes.js';
import { checkRemoteScenarioUrl } from './remote-scenario-url.js';

/**
 * Where scenarios come from: the built-ins the build step writes to `public/scenarios/`
 * (`index.json`, `<id>.json`) and remote bundles or zips from a URL. Remote scenarios are data
 * from elsewhere: validated like any untrusted input, never executed, marked `trusted: false`.
 * The fetcher is injected so all of this runs in Node tests.
 */
export type { Fetcher } from './fetch-bytes.js';
export type { ScenarioIndexEntry } from '../../../hooks/scenarios/scenario-index.js';

export type ScenarioErrorKind = FetchErrorKind | 'bad-request' | 'not-a-scenario' | 'invalid';

export type ScenarioIndexResult =
	| { ok: true; scenarios: ScenarioIndexEntry[] }
	| { ok: false; kind: ScenarioErrorKind; error: string };

export type ScenarioLoadResult =
	| { ok: true; bundle: ScenarioBundle; trusted: boolean; source: string }
	| { ok: false; kind: ScenarioErrorKind; error: string };

export interface ScenarioSourceOptions {
	/** Where the built-ins are served; `/scenarios/` unless the app lives under a base path. */
	baseUrl?: string;
}

const defaultBaseUrl = '/scenarios/';
const maximumIndexBytes = 1024 * 1024;
/** Base64 makes binary files a third larger, and JSON adds its own punctuation. */
const maximumBundleBytes = Math.ceil(scenarioLimits.maximumTotalBytes * 1.5) + 4 * 1024 * 1024;
/** Errors beyond this many are summarised: the first ones show the instructor the pattern. */
const maximumListedErrors = 10;

const defaultFetcher: Fetcher = (input, init) => globalThis.fetch(input, init);

const sameOriginHint =
	'Check the connection and reload; if it persists, the app may have been built without its scenarios (npm run scenarios).';
const remoteHint =
	'Check the address and your connection. The server must also allow this page to read it: this page is cross-origin isolated (COEP require-corp), so the response needs CORS (Access-Control-Allow-Origin) and Cross-Origin-Resource-Policy: cross-origin headers. GitHub raw files and most static hosts can be configured to send them.';

export async function loadScenarioIndex(
	fetcher: Fetcher = defaultFetcher,
	options: ScenarioSourceOptions = {}
): Promise<ScenarioIndexResult> {
	const url = `${baseOf(options)}index.json`;
	const fetched = await fetchBytes(url, fetcher, {
		maximumBytes: maximumIndexBytes,
		networkHint: sameOriginHint,
		what: 'the scenario index'
	});
	if (!fetched.ok) {
		if (fetched.kind === 'not-found') {
			return {
				ok: false,
				kind: 'not-found',
				error: `The scenario index (${url}) is missing: the app was built without its scenarios. Run npm run scenarios and rebuild.`
			};
		}
		return fetched;
	}
	const parsed = scenarioIndexSchema.safeParse(parseJson(fetched.bytes));
	if (!parsed.success) {
		return {
			ok: false,
			kind: 'invalid',
			error: `The scenario index (${url}) is not in the expected format; rebuild it with npm run scenarios.`
		};
	}
	return { ok: true, scenarios: parsed.data.scenarios };
}

export async function loadBuiltInScenario(
	id: string,
	fetcher: Fetcher = defaultFetcher,
	options: ScenarioSourceOptions = {}
): Promise<ScenarioLoadResult> {
	if (!isScenarioId(id)) {
		return {
			ok: false,
			kind: 'bad-request',
			error: `"${shorten(id)}" is not a scenario id (ids are kebab-case, e.g. jwt-auth) nor an https URL.`
		};
	}
	const url = `${baseOf(options)}${id}.json`;
	const fetched = await fetchBytes(url, fetcher, {
		maximumBytes: maximumBundleBytes,
		networkHint: sameOriginHint,
		what: `the scenario "${id}"`
	});
	if (!fetched.ok) {
		if (fetched.kind === 'not-found') {
			return { ok: false, kind: 'not-found', error: `There is no built-in scenario "${id}".` };
		}
		return fetched;
	}
	const checked = checkBundleJson(fetched.bytes, `The built-in scenario "${id}"`);
	if (!checked.ok) return checked;
	if (checked.bundle.manifest.id !== id) {
		return {
			ok: false,
			kind: 'invalid',
			error: `${url} holds the scenario "${checked.bundle.manifest.id}", not "${id}"; rebuild with npm run scenarios.`
		};
	}
	return { ok: true, bundle: checked.bundle, trusted: true, source: `built-in:${id}` };
}

/**
 * A scenario from an https URL (http only for localhost): a `.json` bundle as the build step
 * writes them, or a `.zip` of a scenario folder. Recognised by content, not by the URL's ending,
 * so links with query strings work.
 */
export async function loadRemoteScenario(
	url: string,
	fetcher: Fetcher = defaultFetcher
): Promise<ScenarioLoadResult> {
	const checkedUrl = checkRemoteScenarioUrl(url);
	if (!checkedUrl.ok) return { ok: false, kind: 'bad-request', error: checkedUrl.error };
	const address = checkedUrl.url.href;
	const fetched = await fetchBytes(address, fetcher, {
		maximumBytes: maximumBundleBytes,
		networkHint: remoteHint,
		what: `the scenario at ${address}`,
		// Anonymous: a scenario is a public file, and cookies for its host are none of its business.
		init: { credentials: 'omit', mode: 'cors', redirect: 'follow', referrerPolicy: 'no-referrer' }
	});
	if (!fetched.ok) return fetched;
	if (fetched.finalUrl !== address) {
		const redirected = checkRemoteScenarioUrl(fetched.finalUrl);
		if (!redirected.ok) {
			return {
				ok: false,
				kind: 'bad-request',
				error: `${address} redirected to ${fetched.finalUrl}: ${redirected.error}`
			};
		}
	}
	const label = `The scenario at ${address}`;
	if (isZip(fetched.bytes)) {
		const { bundle, problems } = readScenarioZip(fetched.bytes);
		if (!bundle) {
			return invalid(
				label,
				problems.map((problem) => formatScenarioProblem(problem)),
				{
					tooLarge: problems.some((problem) => problem.exceedsLimit === true),
					notAScenario: problems.every(
						(problem) => problem.file === 'zip' && problem.exceedsLimit !== true
					)
				}
			);
		}
		return { ok: true, bundle, trusted: false, source: address };
	}
	const checked = checkBundleJson(fetched.bytes, label);
	if (!checked.ok) return checked;
	return { ok: true, bundle: checked.bundle, trusted: false, source: address };
}

function checkBundleJson(
	bytes: Uint8Array,
	label: string
): { ok: true; bundle: ScenarioBundle } | { ok: false; kind: ScenarioErrorKind; error: string } {
	const value = parseJson(bytes);
	if (value === undefined) {
		return {
			ok: false,
			kind: 'not-a-scenario',
			error: `${label} is not a scenario: it is neither a JSON scenario bundle nor a zip of a scenario folder.`
		};
	}
	const validation = validateScenarioBundle(value);
	if (!validation.ok) {
		const looksLikeBundle =
			typeof value === 'object' && value !== null && 'manifest' in value && 'files' in value;
		return invalid(label, validation.errors, {
			tooLarge: validation.tooLarge,
			notAScenario: !looksLikeBundle
		});
	}
	return { ok: true, bundle: validation.bundle };
}

function invalid(
	label: string,
	errors: string[],
	{ tooLarge, notAScenario }: { tooLarge: boolean; notAScenario: boolean }
): { ok: false; kind: ScenarioErrorKind; error: string } {
	const listed = errors.slice(0, maximumListedErrors).map((error) => `- ${error}`);
	if (errors.length > maximumListedErrors) {
		listed.push(`- … and ${errors.length - maximumListedErrors} more`);
	}
	const kind: ScenarioErrorKind = tooLarge
		? 'too-large'
		: notAScenario
			? 'not-a-scenario'
			: 'invalid';
	const heading =
		kind === 'not-a-scenario'
			? `${label} is not a scenario:`
			: kind === 'too-large'
				? `${label} is too large (scenarios may hold ${scenarioLimits.maximumFiles} files and ${megabytes(scenarioLimits.maximumTotalBytes)}):`
				: `${label} is not valid:`;
	return { ok: false, kind, error: [heading, ...listed].join('\n') };
}

/** undefined when the bytes are not UTF-8 JSON. */
function parseJson(bytes: Uint8Array): unknown {
	try {
		return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
	} catch {
		return undefined;
	}
}

/** Local file header or end-of-directory record (an empty zip): "PK\3\4" / "PK\5\6". */
function isZip(bytes: Uint8Array): boolean {
	return (
		bytes.length >= 4 &&
		bytes[0] === 0x50 &&
		bytes[1] === 0x4b &&
		((bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[2] === 0x05 && bytes[3] === 0x06))
	);
}

function baseOf(options: ScenarioSourceOptions): string {
	const base = options.baseUrl ?? defaultBaseUrl;
	return base.endsWith('/') ? base : `${base}/`;
}

function shorten(text: string): string {
	return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
