/**
 * The logic of the Settings dialog: which fields each provider shows, defaults, and validation
 * into the settings object the agent uses. Error messages never quote the API key.
 */
import {
	isProviderId,
	providerIds,
	providers,
	type ProviderId,
	type ProviderSettings
} from '../agent/provider-settings.js';

export type { ProviderId, ProviderSettings };
export { isProviderId, providerIds };

/** What the dialog is given: the provider settings plus the agent's step cap. */
export interface AgentSettings extends ProviderSettings {
	stepCap?: number;
}

/** What the dialog saves: always a step cap; a key and a base URL only where the provider uses them. */
/** What "Test connection" found: one sentence, good or bad (agent/test-connection.ts). */
export interface ConnectionTestOutcome {
	ok: boolean;
	message: string;
}

export interface SavedSettings extends ProviderSettings {
	stepCap: number;
}

export const providerLabels: Record<ProviderId, string> = {
	demo: 'Demo (scripted)',
	openai: 'OpenAI',
	anthropic: 'Anthropic',
	google: 'Google',
	openrouter: 'OpenRouter',
	'openai-compatible': 'OpenAI-compatible',
	server: 'Server'
};

export const providerOptions: readonly { id: ProviderId; label: string }[] = providerIds.map(
	(id) => ({ id, label: providerLabels[id] })
);

/** Shown under the Provider field: what the provider needs and where a key comes from. */
export function providerNote(provider: string): string {
	return isProviderId(provider) ? providers[provider].hint : '';
}

export const defaultStepCap = 25;
export const minimumStepCap = 1;
export const maximumStepCap = 200;
const maximumModelLength = 200;
const maximumKeyLength = 1000;

export type SettingsField = 'provider' | 'model' | 'apiKey' | 'baseUrl' | 'stepCap';

/** The dialog's fields as the inputs hold them (a number input may give a number or null). */
export interface SettingsFormValues {
	provider: string;
	model: string;
	apiKey: string;
	baseUrl: string;
	stepCap: string | number | null;
}

export type SettingsValidation =
	| { ok: true; settings: SavedSettings }
	| { ok: false; errors: Partial<Record<SettingsField, string>> };

export function visibleFields(provider: string): Record<'model' | 'apiKey' | 'baseUrl', boolean> {
	const info = isProviderId(provider) ? providers[provider] : null;
	return {
		// The demo plays a script: there is no model to choose.
		model: provider !== 'demo',
		// Demo needs no key and Server's key stays on the server.
		apiKey: info !== null && info.key !== 'none',
		// Only where the server is the person's own; the big providers keep their usual endpoints.
		baseUrl: info !== null && info.baseUrl === 'required'
	};
}

export function keyRequired(provider: string): boolean {
	return isProviderId(provider) && providers[provider].key === 'required';
}

export function modelPlaceholder(provider: string): string {
	if (provider === 'server') return 'From the server (THREADLINE_MODEL)';
	// The registry's default is what an empty field saves, so the placeholder tells the truth.
	return isProviderId(provider) ? providers[provider].defaultModel : '';
}

export function formFromSettings(settings: AgentSettings | null | undefined): SettingsFormValues {
	return {
		provider: settings?.provider ?? 'demo',
		model: settings?.model ?? '',
		apiKey: settings?.apiKey ?? '',
		baseUrl: settings?.baseUrl ?? '',
		stepCap: settings?.stepCap ?? defaultStepCap
	};
}

/**
 * The form after the provider changes. A key typed for one provider is never carried to another
 * (an OpenAI key must not be sent to an arbitrary base URL); returning to the saved provider brings
 * its saved key and model back.
 */
export function switchProvider(
	values: SettingsFormValues,
	provider: string,
	saved: AgentSettings | null | undefined
): SettingsFormValues {
	if (provider === values.provider) return values;
	const backToSaved = saved?.provider === provider;
	return {
		...values,
		provider,
		model: backToSaved ? (saved.model ?? '') : '',
		apiKey: backToSaved ? (saved.apiKey ?? '') : ''
	};
}

export function validateSettingsForm(values: SettingsFormValues): SettingsValidation {
	const errors: Partial<Record<SettingsField, string>> = {};
	const provider = values.provider;
	if (!isProviderId(provider)) {
		return { ok: false, errors: { provider: 'Choose a provider from the list.' } };
	}
	const visible = visibleFields(provider);
	const label = providerLabels[provider];

	const model = visible.model ? values.model.trim() : '';
	if (/[\s\p{Cc}]/u.test(model)) {
		errors.model = 'A model id has no spaces, e.g. gpt-4.1-mini.';
	} else if (model.length > maximumModelLength) {
		errors.model = `A model id is at most ${maximumModelLength} characters.`;
	}

	const apiKey = visible.apiKey ? values.apiKey.trim() : '';
	if (visible.apiKey) {
		if (!apiKey && keyRequired(provider)) {
			errors.apiKey = `Enter your ${label} API key, or choose Demo (scripted).`;
		} else if (/\s/u.test(apiKey)) {
			errors.apiKey = 'The API key must not contain spaces or line breaks.';
		} else if (apiKey.length > maximumKeyLength) {
			errors.apiKey = `The API key is at most ${maximumKeyLength} characters.`;
		} else if (apiKey && !/^[\x21-\x7e]+$/.test(apiKey)) {
			// Keys travel in HTTP headers, which only carry plain ASCII.
			errors.apiKey =
				'The API key can only contain plain ASCII characters; copy it again from the provider.';
		}
	}

	let baseUrl: string | undefined;
	if (visible.baseUrl) {
		const result = checkBaseUrl(values.baseUrl);
		if ('error' in result) errors.baseUrl = result.error;
		else baseUrl = result.url;
	}

	const stepCap = parseStepCap(values.stepCap);
	if (stepCap === null) {
		errors.stepCap = `Step cap must be a whole number from ${minimumStepCap} to ${maximumStepCap}.`;
	}

	if (Object.keys(errors).length > 0 || stepCap === null) return { ok: false, errors };
	const settings: SavedSettings = {
		provider,
		model: model || providers[provider].defaultModel,
		stepCap
	};
	if (apiKey) settings.apiKey = apiKey;
	if (baseUrl !== undefined) settings.baseUrl = baseUrl;
	return { ok: true, settings };
}

function parseStepCap(value: string | number | null): number | null {
	if (value === null) return defaultStepCap;
	const text = String(value).trim();
	if (text === '') return defaultStepCap;
	if (!/^\d+$/.test(text)) return null;
	const number = Number(text);
	return number >= minimumStepCap && number <= maximumStepCap ? number : null;
}

function checkBaseUrl(value: string): { url: string } | { error: string } {
	const text = value.trim();
	if (!text) {
		return {
			error: 'Enter the server’s base URL, e.g. http://localhost:11434/v1 for Ollama.'
		};
	}
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return { error: 'Enter a full URL, e.g. http://localhost:11434/v1.' };
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		return { error: 'The base URL must start with http:// or https://.' };
	}
	if (url.username || url.password) {
		return {
			error: 'Leave the user name and password out of the base URL; put a key in “API key”.'
		};
	}
	if (url.hash) return { error: 'The base URL cannot contain a # fragment.' };
	// The SDK appends `/chat/completions`, so a trailing slash would double up.
	return { url: url.search ? text : text.replace(/\/+$/, '') };
}
