import { describe, expect, it } from 'vitest';
import {
	defaultStepCap,
	formFromSettings,
	keyRequired,
	modelPlaceholder,
	providerIds,
	providerNote,
	providerOptions,
	switchProvider,
	validateSettingsForm,
	visibleFields,
	type SettingsFormValues
} from './settings-form.js';
import { providers } from '../agent/provider-settings.js';

function form(overrides: Partial<SettingsFormValues> = {}): SettingsFormValues {
	return {
		provider: 'openai',
		model: '',
		apiKey: 'sk-test-123',
		baseUrl: '',
		stepCap: 25,
		...overrides
	};
}

describe('provider options', () => {
	it('lists the providers in the dialog’s order with their labels', () => {
		expect(providerOptions.map((option) => option.label)).toEqual([
			'Demo (scripted)',
			'OpenAI',
			'Anthropic',
			'Google',
			'OpenRouter',
			'OpenAI-compatible',
			'Server'
		]);
		expect(providerOptions.map((option) => option.id)).toEqual([...providerIds]);
	});

	it('shows the key only where the browser sends it, and the base URL only for OpenAI-compatible', () => {
		expect(visibleFields('demo')).toEqual({ model: false, apiKey: false, baseUrl: false });
		expect(visibleFields('server')).toEqual({ model: true, apiKey: false, baseUrl: false });
		expect(visibleFields('openai')).toEqual({ model: true, apiKey: true, baseUrl: false });
		expect(visibleFields('openai-compatible')).toEqual({
			model: true,
			apiKey: true,
			baseUrl: true
		});
		expect(keyRequired('anthropic')).toBe(true);
		expect(keyRequired('openai-compatible')).toBe(false);
		expect(keyRequired('server')).toBe(false);
	});

	it('offers the registry’s default models as placeholders (what an empty field saves)', () => {
		for (const id of [
			'openai',
			'anthropic',
			'google',
			'openrouter',
			'openai-compatible'
		] as const) {
			expect(modelPlaceholder(id)).toBe(providers[id].defaultModel);
			expect(modelPlaceholder(id)).not.toBe('');
		}
		expect(modelPlaceholder('server')).toMatch(/THREADLINE_MODEL/);
		expect(modelPlaceholder('nonsense')).toBe('');
	});

	it('notes what each provider needs', () => {
		expect(providerNote('server')).toMatch(/THREADLINE_PROVIDER/);
		expect(providerNote('nonsense')).toBe('');
	});
});

describe('formFromSettings', () => {
	it('defaults to the demo with the default step cap', () => {
		expect(formFromSettings(undefined)).toEqual({
			provider: 'demo',
			model: '',
			apiKey: '',
			baseUrl: '',
			stepCap: defaultStepCap
		});
	});

	it('copies saved settings', () => {
		expect(
			formFromSettings({ provider: 'openai', model: 'gpt-4.1', apiKey: 'sk-1', stepCap: 10 })
		).toEqual({ provider: 'openai', model: 'gpt-4.1', apiKey: 'sk-1', baseUrl: '', stepCap: 10 });
	});
});

describe('switchProvider', () => {
	const saved = { provider: 'openai' as const, model: 'gpt-4.1', apiKey: 'sk-saved' };

	it('never carries a key or model to another provider', () => {
		const next = switchProvider(
			form({ apiKey: 'sk-saved', model: 'gpt-4.1' }),
			'openai-compatible',
			saved
		);
		expect(next.apiKey).toBe('');
		expect(next.model).toBe('');
		expect(next.provider).toBe('openai-compatible');
	});

	it('brings the saved key and model back when returning to the saved provider', () => {
		const away = switchProvider(form(), 'anthropic', saved);
		expect(switchProvider({ ...away, apiKey: 'sk-ant' }, 'openai', saved)).toMatchObject({
			provider: 'openai',
			apiKey: 'sk-saved',
			model: 'gpt-4.1'
		});
	});

	it('keeps the values when the provider does not change', () => {
		const values = form({ apiKey: 'typed' });
		expect(switchProvider(values, 'openai', saved)).toBe(values);
	});
});

describe('validateSettingsForm', () => {
	it('saves a provider with its key and fills the default model', () => {
		expect(validateSettingsForm(form({ apiKey: '  sk-test-123  ' }))).toEqual({
			ok: true,
			settings: {
				provider: 'openai',
				model: providers.openai.defaultModel,
				apiKey: 'sk-test-123',
				stepCap: 25
			}
		});
	});

	it('keeps a typed model', () => {
		const result = validateSettingsForm(
			form({ provider: 'openrouter', model: ' anthropic/claude-3.5 ' })
		);
		expect(result.ok && result.settings.model).toBe('anthropic/claude-3.5');
	});

	it('drops the key, model and base URL where the provider does not use them', () => {
		expect(
			validateSettingsForm(
				form({ provider: 'demo', model: 'gpt', apiKey: 'sk-1', baseUrl: 'http://x', stepCap: '' })
			)
		).toEqual({ ok: true, settings: { provider: 'demo', model: 'scripted', stepCap: 25 } });
		expect(validateSettingsForm(form({ provider: 'server', apiKey: 'sk-1' }))).toEqual({
			ok: true,
			settings: { provider: 'server', model: '', stepCap: 25 }
		});
		const openai = validateSettingsForm(form({ baseUrl: 'http://localhost:1/v1' }));
		expect(openai.ok && 'baseUrl' in openai.settings).toBe(false);
	});

	it('asks for a key where one is required, naming the provider', () => {
		expect(validateSettingsForm(form({ provider: 'anthropic', apiKey: '  ' }))).toEqual({
			ok: false,
			errors: { apiKey: 'Enter your Anthropic API key, or choose Demo (scripted).' }
		});
	});

	it('rejects keys with spaces or non-ASCII characters without quoting them', () => {
		const spaced = validateSettingsForm(form({ apiKey: 'sk-abc def' }));
		expect(spaced).toEqual({
			ok: false,
			errors: { apiKey: 'The API key must not contain spaces or line breaks.' }
		});
		const unicode = validateSettingsForm(form({ apiKey: 'sk-abcé' }));
		expect(unicode.ok).toBe(false);
		if (!unicode.ok) {
			expect(unicode.errors.apiKey).toMatch(/ASCII/);
			expect(unicode.errors.apiKey).not.toContain('sk-abc');
		}
		const long = validateSettingsForm(form({ apiKey: 'k'.repeat(1001) }));
		expect(long.ok).toBe(false);
	});

	it('accepts an OpenAI-compatible server without a key and trims the base URL’s trailing slash', () => {
		expect(
			validateSettingsForm(
				form({ provider: 'openai-compatible', apiKey: '', baseUrl: ' http://localhost:11434/v1/ ' })
			)
		).toEqual({
			ok: true,
			settings: {
				provider: 'openai-compatible',
				model: providers['openai-compatible'].defaultModel,
				baseUrl: 'http://localhost:11434/v1',
				stepCap: 25
			}
		});
	});

	it('explains what is wrong with a base URL', () => {
		const errorFor = (baseUrl: string) => {
			const result = validateSettingsForm(form({ provider: 'openai-compatible', baseUrl }));
			return result.ok ? null : result.errors.baseUrl;
		};
		expect(errorFor('')).toMatch(/Enter the server’s base URL/);
		expect(errorFor('localhost:11434')).toMatch(/http:\/\/ or https:\/\//);
		expect(errorFor('not a url')).toMatch(/full URL/);
		expect(errorFor('ftp://example.com/v1')).toMatch(/http:\/\/ or https:\/\//);
		expect(errorFor('https://user:secret@example.com/v1')).toMatch(/user name and password/);
		expect(errorFor('https://user:secret@example.com/v1')).not.toContain('secret');
		expect(errorFor('https://example.com/v1#x')).toMatch(/fragment/);
		expect(errorFor('https://example.com/v1?api-version=1')).toBeNull();
	});

	it('checks the step cap', () => {
		const capError = (stepCap: SettingsFormValues['stepCap']) => {
			const result = validateSettingsForm(form({ stepCap }));
			return result.ok ? result.settings.stepCap : result.errors.stepCap;
		};
		expect(capError(null)).toBe(25);
		expect(capError(' 40 ')).toBe(40);
		expect(capError(1)).toBe(1);
		expect(capError(200)).toBe(200);
		for (const bad of [0, 201, 2.5, -3, 'ten', '1e2']) {
			expect(capError(bad)).toBe('Step cap must be a whole number from 1 to 200.');
		}
	});

	it('rejects a model id with spaces and an unknown provider', () => {
		const spaced = validateSettingsForm(form({ model: 'gpt 4' }));
		expect(spaced.ok ? null : spaced.errors.model).toMatch(/no spaces/);
		expect(validateSettingsForm(form({ provider: 'mistral' }))).toEqual({
			ok: false,
			errors: { provider: 'Choose a provider from the list.' }
		});
	});

	it('reports every invalid field at once', () => {
		const result = validateSettingsForm(
			form({ provider: 'openai-compatible', model: 'a b', baseUrl: '', stepCap: 0 })
		);
		expect(result.ok ? [] : Object.keys(result.errors).sort()).toEqual([
			'baseUrl',
			'model',
			'stepCap'
		]);
	});
});
