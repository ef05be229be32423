/**
 * Which model the agent talks to. Kept in this browser only (localStorage, one key); the API key
 * never leaves it except in requests to the chosen provider, and is redacted from anything shown
 * or logged.
 */
export const providerIds = [
	'demo',
	'openai',
	'anthropic',
	'google',
	'openrouter',
	'openai-compatible',
	'server'
] as const;

export type ProviderId = (typeof providerIds)[number];

export interface ProviderSettings {
	provider: ProviderId;
	model: string;
	apiKey?: string;
	baseUrl?: string;
}

export interface ProviderInfo {
	id: ProviderId;
	/** For the "Provider" select. */
	label: string;
	/** Filled in when the person picks the provider and the model field is empty. */
	defaultModel: string;
	key: 'required' | 'optional' | 'none';
	baseUrl: 'required' | 'optional' | 'none';
	/** Shown under the fields: where to get a key, what the base URL looks like. */
	hint: string;
}

export const providers: Record<ProviderId, ProviderInfo> = {
	demo: {
		id: 'demo',
		label: 'Demo (scripted)',
		defaultModel: 'scripted',
		key: 'none',
		baseUrl: 'none',
		hint: 'Plays the scenario’s demo script through the real pipeline. No key needed.'
	},
	openai: {
		id: 'openai',
		label: 'OpenAI',
		defaultModel: 'gpt-5.4-mini',
		key: 'required',
		baseUrl: 'optional',
		hint: 'A key from platform.openai.com. It stays in this browser.'
	},
	anthropic: {
		id: 'anthropic',
		label: 'Anthropic',
		defaultModel: 'claude-sonnet-4-6',
		key: 'required',
		baseUrl: 'optional',
		hint: 'A key from console.anthropic.com. It stays in this browser.'
	},
	google: {
		id: 'google',
		label: 'Google',
		defaultModel: 'gemini-2.5-flash',
		key: 'required',
		baseUrl: 'optional',
		hint: 'A Gemini API key from aistudio.google.com. It stays in this browser.'
	},
	openrouter: {
		id: 'openrouter',
		label: 'OpenRouter',
		defaultModel: 'openai/gpt-5.4-mini',
		key: 'required',
		baseUrl: 'optional',
		hint: 'A key from openrouter.ai. It stays in this browser.'
	},
	'openai-compatible': {
		id: 'openai-compatible',
		label: 'OpenAI-compatible (Ollama, LM Studio, vLLM)',
		defaultModel: 'llama3.1',
		key: 'optional',
		baseUrl: 'required',
		hint: 'The server’s /v1 URL, e.g. http://localhost:11434/v1 (Ollama) or http://localhost:1234/v1 (LM Studio). It must allow requests from this page (CORS).'
	},
	server: {
		id: 'server',
		label: 'Server',
		defaultModel: '',
		key: 'none',
		baseUrl: 'none',
		hint: 'This app’s /api/chat route, with the key from the server’s environment (THREADLINE_PROVIDER, THREADLINE_MODEL and the provider’s key variable).'
	}
};

/** The one localStorage key for these settings. */
export const settingsStorageKey = 'threadline-settings';

const maximumModelLength = 200;
const maximumKeyLength = 1000;
const maximumUrlLength = 2000;

export function isProviderId(value: unknown): value is ProviderId {
	return typeof value === 'string' && (providerIds as readonly string[]).includes(value);
}

/** Nothing configured: the scripted demo, which needs no key. */
export function defaultSettings(): ProviderSettings {
	return { provider: 'demo', model: providers.demo.defaultModel };
}

export interface SettingsProblem {
	field: 'provider' | 'model' | 'apiKey' | 'baseUrl';
	message: string;
}

export type SettingsValidation =
	{ ok: true; settings: ProviderSettings } | { ok: false; problems: SettingsProblem[] };

/**
 * Checks settings typed by a person (or read back from storage) and returns them trimmed, with
 * the fields the provider does not use dropped, or every problem in plain words.
 */
export function validateSettings(input: unknown): SettingsValidation {
	if (typeof input !== 'object' || input === null || Array.isArray(input)) {
		return { ok: false, problems: [{ field: 'provider', message: 'Settings must be an object.' }] };
	}
	const candidate = input as Record<string, unknown>;
	if (!isProviderId(candidate.provider)) {
		const names = providerIds.map((id) => providers[id].label).join(', ');
		return {
			ok: false,
			problems: [{ field: 'provider', message: `Choose a provider: ${names}.` }]
		};
	}
	const info = providers[candidate.provider];
	const problems: SettingsProblem[] = [];
	const model = optionalText(candidate.model, 'model', 'Model', problems);
	const apiKey = optionalText(candidate.apiKey, 'apiKey', 'API key', problems);
	const baseUrl = optionalText(candidate.baseUrl, 'baseUrl', 'Base URL', problems);

	if (model !== undefined) {
		if (model.length > maximumModelLength)
			problems.push({
				field: 'model',
				message: `The model name is longer than ${maximumModelLength} characters.`
			});
		else if (/\s/.test(model))
			problems.push({ field: 'model', message: 'The model name must not contain spaces.' });
	}
	const needsModel = info.key !== 'none' || info.baseUrl !== 'none';
	if (needsModel && model === undefined) {
		problems.push({
			field: 'model',
			message: `Enter a model for ${info.label}, e.g. ${info.defaultModel}.`
		});
	}

	if (info.key === 'required' && apiKey === undefined) {
		problems.push({ field: 'apiKey', message: `${info.label} needs an API key.` });
	}
	if (info.key !== 'none' && apiKey !== undefined) {
		if (apiKey.length > maximumKeyLength)
			problems.push({ field: 'apiKey', message: 'The API key is too long to be a key.' });
		else if (/\s/.test(apiKey) || hasControlCharacter(apiKey))
			problems.push({
				field: 'apiKey',
				message: 'The API key must not contain spaces or line breaks; paste it again.'
			});
	}

	if (info.baseUrl === 'required' && baseUrl === undefined) {
		problems.push({
			field: 'baseUrl',
			message: `${info.label} needs a base URL, e.g. http://localhost:11434/v1.`
		});
	}
	if (info.baseUrl !== 'none' && baseUrl !== undefined) {
		const problem = checkBaseUrl(baseUrl);
		if (problem) problems.push({ field: 'baseUrl', message: problem });
	}

	if (problems.length > 0) return { ok: false, problems };
	const settings: ProviderSettings = {
		provider: info.id,
		model: model ?? info.defaultModel
	};
	if (info.key !== 'none' && apiKey !== undefined) settings.apiKey = apiKey;
	if (info.baseUrl !== 'none' && baseUrl !== undefined) settings.baseUrl = baseUrl;
	return { ok: true, settings };
}

function optionalText(
	value: unknown,
	field: SettingsProblem['field'],
	label: string,
	problems: SettingsProblem[]
): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string') {
		problems.push({ field, message: `${label} must be text.` });
		return undefined;
	}
	const trimmed = value.trim();
	return trimmed === '' ? undefined : trimmed;
}

function hasControlCharacter(text: string): boolean {
	return [...text].some((character) => {
		const code = character.charCodeAt(0);
		return code < 0x20 || code === 0x7f;
	});
}

function checkBaseUrl(text: string): string | null {
	if (text.length > maximumUrlLength) return 'The base URL is too long.';
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return `"${text}" is not a URL; it looks like http://localhost:11434/v1.`;
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:')
		return 'The base URL must start with http:// or https://, e.g. http://localhost:11434/v1.';
	if (url.username || url.password) return 'Put the key in the API key field, not in the base URL.';
	return null;
}

/** The storage the settings live in; `localStorage` in the page, a fake in tests. */
export type SettingsStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * The saved settings, or the defaults when nothing (or nothing valid) is saved: a corrupt entry
 * or a provider that lost its key falls back to the demo rather than failing every turn.
 */
export function loadSettings(storage: SettingsStorage | undefined): ProviderSettings {
	if (!storage) return defaultSettings();
	let text: string | null;
	try {
		text = storage.getItem(settingsStorageKey);
	} catch {
		// Storage can be disabled (privacy settings); the demo still works.
		return defaultSettings();
	}
	if (text === null) return defaultSettings();
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return defaultSettings();
	}
	const validation = validateSettings(parsed);
	return validation.ok ? validation.settings : defaultSettings();
}

export type SaveResult =
	{ ok: true; settings: ProviderSettings } | { ok: false; problems: SettingsProblem[] };

/** Validates and stores the settings; nothing is stored when they are invalid. */
export function saveSettings(storage: SettingsStorage | undefined, input: unknown): SaveResult {
	const validation = validateSettings(input);
	if (!validation.ok) return validation;
	if (!storage) {
		return {
			ok: false,
			problems: [
				{ field: 'provider', message: 'This browser does not allow saving settings here.' }
			]
		};
	}
	try {
		storage.setItem(settingsStorageKey, JSON.stringify(validation.settings));
	} catch {
		return {
			ok: false,
			problems: [
				{
					field: 'provider',
					message:
						'The settings could not be saved: this browser blocks or has filled its storage for this site.'
				}
			]
		};
	}
	return validation;
}

/**
 * Removes the API key from this browser. A provider that cannot work without a key falls back
 * to the demo; the others keep their model and base URL.
 */
export function forgetKey(storage: SettingsStorage | undefined): ProviderSettings {
	const current = loadSettings(storage);
	const withoutKey: ProviderSettings =
		providers[current.provider].key === 'required'
			? defaultSettings()
			: { provider: current.provider, model: current.model };
	if (current.baseUrl !== undefined && providers[withoutKey.provider].baseUrl !== 'none')
		withoutKey.baseUrl = current.baseUrl;
	if (storage) {
		try {
			if (withoutKey.provider === 'demo') storage.removeItem(settingsStorageKey);
			else storage.setItem(settingsStorageKey, JSON.stringify(withoutKey));
		} catch {
			// Nothing more can be done: the storage refuses us, so it holds no new key either.
		}
	}
	return withoutKey;
}

/** The model id recorded in trace records: `provider/model`. */
export function modelIdOf(settings: ProviderSettings): string {
	const model = settings.model.trim() || providers[settings.provider].defaultModel || 'default';
	return `${settings.provider}/${model}`;
}

const redacted = '[redacted]';

/**
 * Things that look like secrets whoever's they are: OpenAI/Anthropic/OpenRouter `sk-…` keys,
 * Google `AIza…` keys, bearer tokens and `key=` query parameters.
 */
const secretPatterns: RegExp[] = [
	/\bsk-[A-Za-z0-9_-]{8,}/g,
	/\bAIza[0-9A-Za-z_-]{20,}/g,
	/\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
	/([?&](?:api[_-]?)?key=)[^&\s"']+/gi
];

/** `text` with the configured key (plain or URL-encoded) and key-like tokens replaced. */
export function redactSecrets(
	text: string,
	settings?: Pick<ProviderSettings, 'apiKey'> | null
): string {
	let result = text;
	const key = settings?.apiKey?.trim();
	// Very short "keys" would redact ordinary words; real keys are long.
	if (key && key.length >= 6) {
		for (const form of new Set([key, encodeURIComponent(key)])) {
			result = result.split(form).join(redacted);
		}
	}
	for (const pattern of secretPatterns) {
		result = result.replace(pattern, (match, prefix: unknown) =>
			typeof prefix === 'string' && match.startsWith(prefix) ? `${prefix}${redacted}` : redacted
		);
	}
	return result;
}
