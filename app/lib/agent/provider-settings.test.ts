import { describe, expect, it } from 'vitest';
import {
	defaultSettings,
	forgetKey,
	loadSettings,
	modelIdOf,
	providerIds,
	providers,
	redactSecrets,
	saveSettings,
	settingsStorageKey,
	validateSettings,
	type SettingsStorage
} from './provider-settings.js';

class MemoryStorage implements SettingsStorage {
	readonly items = new Map<string, string>();
	getItem(key: string) {
		return this.items.get(key) ?? null;
	}
	setItem(key: string, value: string) {
		this.items.set(key, value);
	}
	removeItem(key: string) {
		this.items.delete(key);
	}
}

const openAiKey = 'sk-proj-abcdefghijklmnop1234567890';

describe('defaults', () => {
	it('is the scripted demo when nothing is configured', () => {
		expect(defaultSettings()).toEqual({ provider: 'demo', model: 'scripted' });
		expect(loadSettings(new MemoryStorage())).toEqual(defaultSettings());
		expect(loadSettings(undefined)).toEqual(defaultSettings());
	});

	it('describes every provider with a label', () => {
		for (const id of providerIds) expect(providers[id].label).not.toBe('');
		expect(providers.demo.label).toBe('Demo (scripted)');
		expect(providers.server.label).toBe('Server');
	});
});

describe('validateSettings', () => {
	it('accepts a complete OpenAI configuration and trims it', () => {
		expect(
			validateSettings({ provider: 'openai', model: ' gpt-5.4-mini ', apiKey: ` ${openAiKey}\n` })
		).toEqual({
			ok: true,
			settings: { provider: 'openai', model: 'gpt-5.4-mini', apiKey: openAiKey }
		});
	});

	it('fills the default model when the field is empty', () => {
		const result = validateSettings({ provider: 'demo', model: '' });
		expect(result).toEqual({ ok: true, settings: { provider: 'demo', model: 'scripted' } });
	});

	it('asks for a key for the providers that need one', () => {
		for (const provider of ['openai', 'anthropic', 'google', 'openrouter'] as const) {
			const result = validateSettings({ provider, model: 'm' });
			expect(result.ok).toBe(false);
			if (!result.ok)
				expect(result.problems).toEqual([
					{ field: 'apiKey', message: `${providers[provider].label} needs an API key.` }
				]);
		}
	});

	it('asks for a model where the provider needs one', () => {
		const result = validateSettings({ provider: 'anthropic', apiKey: 'sk-ant-1234567890' });
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.problems[0]?.message).toMatch(/Enter a model for Anthropic/);
	});

	it('needs a base URL for OpenAI-compatible servers but no key', () => {
		const missing = validateSettings({ provider: 'openai-compatible', model: 'llama3.1' });
		expect(missing.ok).toBe(false);
		if (!missing.ok) expect(missing.problems[0]?.field).toBe('baseUrl');
		expect(
			validateSettings({
				provider: 'openai-compatible',
				model: 'llama3.1',
				baseUrl: 'http://localhost:11434/v1'
			})
		).toEqual({
			ok: true,
			settings: {
				provider: 'openai-compatible',
				model: 'llama3.1',
				baseUrl: 'http://localhost:11434/v1'
			}
		});
	});

	it('refuses base URLs that are not http(s) or carry credentials', () => {
		const messages = [
			'my ollama',
			'localhost:11434',
			'file:///etc/passwd',
			'http://user:secret@host/v1'
		].map((baseUrl) => {
			const result = validateSettings({ provider: 'openai-compatible', model: 'm', baseUrl });
			return result.ok ? 'ok' : result.problems[0]?.message;
		});
		expect(messages[0]).toMatch(/not a URL/);
		expect(messages[1]).toMatch(/must start with http:\/\/ or https:\/\//);
		expect(messages[2]).toMatch(/must start with http:\/\/ or https:\/\//);
		expect(messages[3]).toMatch(/API key field/);
	});

	it('refuses keys with spaces or line breaks (they would break the request header)', () => {
		for (const apiKey of ['sk-abc\ndef', 'sk-abc def', 'sk-abc\u0000def', 'sk-abc\u007fdef']) {
			const result = validateSettings({ provider: 'openai', model: 'm', apiKey });
			expect(result.ok).toBe(false);
			if (!result.ok) expect(result.problems[0]?.message).toMatch(/spaces or line breaks/);
		}
	});

	it('names the providers when the provider is unknown', () => {
		const result = validateSettings({ provider: 'skynet', model: 'm' });
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.problems[0]?.message).toMatch(/Demo \(scripted\), OpenAI/);
	});

	it('refuses non-objects and non-text fields', () => {
		expect(validateSettings(null).ok).toBe(false);
		expect(validateSettings('openai').ok).toBe(false);
		const result = validateSettings({ provider: 'openai', model: 5, apiKey: openAiKey });
		expect(result.ok).toBe(false);
		if (!result.ok)
			expect(result.problems).toContainEqual({ field: 'model', message: 'Model must be text.' });
	});

	it('drops fields the provider does not use (no key is kept for the demo or the server)', () => {
		expect(validateSettings({ provider: 'demo', model: 'scripted', apiKey: openAiKey })).toEqual({
			ok: true,
			settings: { provider: 'demo', model: 'scripted' }
		});
		expect(
			validateSettings({ provider: 'server', model: '', apiKey: openAiKey, baseUrl: 'http://x' })
		).toEqual({ ok: true, settings: { provider: 'server', model: '' } });
	});
});

describe('saving and loading', () => {
	it('round-trips through one storage key', () => {
		const storage = new MemoryStorage();
		const saved = saveSettings(storage, {
			provider: 'openai',
			model: 'gpt-5.4-mini',
			apiKey: openAiKey
		});
		expect(saved.ok).toBe(true);
		expect([...storage.items.keys()]).toEqual([settingsStorageKey]);
		expect(settingsStorageKey).toBe('threadline-settings');
		expect(loadSettings(storage)).toEqual({
			provider: 'openai',
			model: 'gpt-5.4-mini',
			apiKey: openAiKey
		});
	});

	it('stores nothing when the settings are invalid', () => {
		const storage = new MemoryStorage();
		const saved = saveSettings(storage, { provider: 'openai', model: 'gpt' });
		expect(saved.ok).toBe(false);
		expect(storage.items.size).toBe(0);
	});

	it('falls back to the demo on corrupt or outdated entries', () => {
		const storage = new MemoryStorage();
		storage.setItem(settingsStorageKey, '{not json');
		expect(loadSettings(storage)).toEqual(defaultSettings());
		storage.setItem(settingsStorageKey, JSON.stringify({ provider: 'openai', model: 'gpt' }));
		expect(loadSettings(storage)).toEqual(defaultSettings());
	});

	it('survives a storage that throws (privacy mode, full quota)', () => {
		const hostile: SettingsStorage = {
			getItem: () => {
				throw new Error('SecurityError');
			},
			setItem: () => {
				throw new Error('QuotaExceededError');
			},
			removeItem: () => {
				throw new Error('SecurityError');
			}
		};
		expect(loadSettings(hostile)).toEqual(defaultSettings());
		const saved = saveSettings(hostile, { provider: 'demo', model: 'scripted' });
		expect(saved.ok).toBe(false);
		if (!saved.ok) expect(saved.problems[0]?.message).toMatch(/could not be saved/);
		expect(forgetKey(hostile)).toEqual(defaultSettings());
	});
});

describe('forgetKey', () => {
	it('removes the key and falls back to the demo for providers that need one', () => {
		const storage = new MemoryStorage();
		saveSettings(storage, {
			provider: 'anthropic',
			model: 'claude-sonnet-4-6',
			apiKey: 'sk-ant-api03-secretsecret'
		});
		expect(forgetKey(storage)).toEqual(defaultSettings());
		expect(storage.items.size).toBe(0);
		expect(loadSettings(storage)).toEqual(defaultSettings());
	});

	it('keeps an OpenAI-compatible server (its key is optional) without the key', () => {
		const storage = new MemoryStorage();
		saveSettings(storage, {
			provider: 'openai-compatible',
			model: 'qwen3',
			apiKey: 'lm-studio-token-123',
			baseUrl: 'http://localhost:1234/v1'
		});
		const after = forgetKey(storage);
		expect(after).toEqual({
			provider: 'openai-compatible',
			model: 'qwen3',
			baseUrl: 'http://localhost:1234/v1'
		});
		expect(storage.getItem(settingsStorageKey)).not.toContain('lm-studio-token');
		expect(loadSettings(storage)).toEqual(after);
	});
});

describe('modelIdOf', () => {
	it('is provider/model', () => {
		expect(modelIdOf({ provider: 'openai', model: 'gpt-5.4-mini', apiKey: 'x' })).toBe(
			'openai/gpt-5.4-mini'
		);
		expect(modelIdOf({ provider: 'openrouter', model: 'anthropic/claude-sonnet-4-6' })).toBe(
			'openrouter/anthropic/claude-sonnet-4-6'
		);
		expect(modelIdOf(defaultSettings())).toBe('demo/scripted');
		expect(modelIdOf({ provider: 'server', model: '' })).toBe('server/default');
	});
});

describe('redactSecrets', () => {
	it('replaces the configured key, also URL-encoded', () => {
		const key = 'my+custom/key=value';
		const text = `Refused ${key} at https://x.test/v1?token=${encodeURIComponent(key)}`;
		const result = redactSecrets(text, { apiKey: key });
		expect(result).not.toContain(key);
		expect(result).not.toContain(encodeURIComponent(key));
		expect(result).toBe('Refused [redacted] at https://x.test/v1?token=[redacted]');
	});

	it('replaces key-like tokens even when they are not the configured key', () => {
		const text = [
			'Incorrect API key provided: sk-proj-AbCdEf1234567890.',
			'anthropic sk-ant-api03-xyzXYZ0123456789',
			'google AIzaSyA1234567890abcdefghijklmnopqrs',
			'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload',
			'GET /v1beta/models?key=secretvalue&alt=sse'
		].join('\n');
		const result = redactSecrets(text);
		expect(result).toBe(
			[
				'Incorrect API key provided: [redacted].',
				'anthropic [redacted]',
				'google [redacted]',
				'Authorization: Bearer [redacted]',
				'GET /v1beta/models?key=[redacted]&alt=sse'
			].join('\n')
		);
	});

	it('leaves ordinary text and very short "keys" alone', () => {
		expect(redactSecrets('The task is done.', { apiKey: 'the' })).toBe('The task is done.');
		expect(redactSecrets('skills and sk-8 are fine')).toBe('skills and sk-8 are fine');
	});
});
