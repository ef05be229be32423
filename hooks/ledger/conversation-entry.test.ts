import { describe, expect, it } from 'vitest';
import { contentHash } from '../hashing/sha256.js';
import { canonicalJson } from './canonical-json.js';
import { conversationEntryDraft, conversationLimits } from './conversation-entry.js';
import { redactSecretText } from './secret-redaction.js';

const at = '2026-12-02T10:00:00.000Z';

describe('conversation entries: secrets never enter the ledger', () => {
	const secrets = [
		'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
		'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz_0123456789-xyz',
		'sk-or-v1-0123456789abcdef0123456789abcdef',
		'AIzaSyA1234567890abcdefghijklmnopqrstuv',
		'ghp_0123456789abcdefghijABCDEFGHIJ012345',
		'AKIAIOSFODNN7EXAMPLE',
		'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
		'hf_abcdefghijklmnopqrstuvwxyzABCD'
	];
	for (const secret of secrets) {
		it(`redacts ${secret.slice(0, 8)}… in text, tool input, output, error and keys`, async () => {
			const user = await conversationEntryDraft({
				sessionId: 's',
				role: 'user',
				at,
				text: `my key is ${secret}, please use it`
			});
			const call = await conversationEntryDraft({
				sessionId: 's',
				role: 'assistant',
				at,
				toolCall: {
					id: 'c1',
					name: 'write_to_file',
					input: { path: '.env', content: `KEY=${secret}\n`, nested: [{ [secret]: secret }] }
				}
			});
			const result = await conversationEntryDraft({
				sessionId: 's',
				role: 'tool',
				at,
				toolResult: { id: 'c1', ok: false, error: { message: `bad ${secret}` } }
			});
			for (const draft of [user, call, result]) {
				const text = canonicalJson(draft);
				expect(text).not.toContain(secret);
				expect(text).toContain('[redacted]');
			}
			expect(user.text).toBe('my key is [redacted], please use it');
		});
	}

	it('redacts bearer tokens, PEM private keys (even unterminated), key= parameters and .env lines', () => {
		expect(redactSecretText('Authorization: Bearer abc.def-ghi_jkl')).toBe(
			'Authorization: Bearer [redacted]'
		);
		const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nIBAAKC\n-----END RSA PRIVATE KEY-----';
		expect(redactSecretText(`key:\n${pem}\nafter`)).toBe('key:\n[redacted]\nafter');
		expect(redactSecretText('-----BEGIN PRIVATE KEY-----\nMIIEvQIBADAN')).toBe('[redacted]');
		expect(redactSecretText('https://x.test/v1?key=abcdefgh123&q=1')).toBe(
			'https://x.test/v1?key=[redacted]&q=1'
		);
		expect(redactSecretText('OPENAI_API_KEY=abcdef123456 npm start')).toBe(
			'OPENAI_API_KEY=[redacted] npm start'
		);
		expect(redactSecretText('{"api_key": "abcdef123456"}')).toBe('{"api_key": "[redacted]"}');
	});

	it('redacts the configured key whatever it looks like, plain and URL-encoded', async () => {
		const key = 'local+model/secret==';
		const draft = await conversationEntryDraft({
			sessionId: 's',
			role: 'user',
			at,
			text: `${key} and ${encodeURIComponent(key)}`,
			knownSecrets: [key]
		});
		expect(draft.text).toBe('[redacted] and [redacted]');
	});

	it('leaves code that reads a secret from a variable alone', () => {
		const code = 'const password = request.body.password;\nconst key = hash(token);';
		expect(redactSecretText(code)).toBe(code);
	});
});

describe('conversation entries: size limits', () => {
	it('cuts a text over the limit on a character boundary and names the whole by size and hash', async () => {
		const text = 'é'.repeat(conversationLimits.bodyBytes); // 2 bytes each
		const draft = await conversationEntryDraft({ sessionId: 's', role: 'assistant', at, text });
		const bytes = new TextEncoder().encode(draft.text ?? '');
		expect(bytes.byteLength).toBeLessThanOrEqual(conversationLimits.bodyBytes);
		expect(draft.text).toBe('é'.repeat(conversationLimits.bodyBytes / 2));
		expect(draft.cut?.text).toEqual({
			bytes: conversationLimits.bodyBytes * 2,
			sha256: await contentHash(text)
		});
	});

	it('cuts a large tool input and output to the start of their JSON', async () => {
		const input = { path: 'a.ts', content: 'x'.repeat(40_000) };
		const call = await conversationEntryDraft({
			sessionId: 's',
			role: 'assistant',
			at,
			toolCall: { id: 'c', name: 'write_to_file', input }
		});
		expect(typeof call.tool_call?.input).toBe('string');
		expect(canonicalJson(input).startsWith(call.tool_call?.input as string)).toBe(true);
		expect(call.cut?.input?.sha256).toBe(await contentHash(canonicalJson(input)));
		const small = await conversationEntryDraft({
			sessionId: 's',
			role: 'tool',
			at,
			toolResult: { id: 'c', ok: true, output: { lines: 3 } }
		});
		expect(small.tool_result).toEqual({ id: 'c', ok: true, output: { lines: 3 } });
		expect(small.cut).toBeUndefined();
	});

	it('refuses entries that do not fit their role or overlong names', async () => {
		await expect(
			conversationEntryDraft({
				sessionId: 's',
				role: 'user',
				at,
				text: 'x',
				toolCall: { id: 'a', name: 'b', input: {} }
			})
		).rejects.toThrow(/user entry/);
		await expect(
			conversationEntryDraft({ sessionId: 's', role: 'tool', at, text: 'x' })
		).rejects.toThrow(/tool entry/);
		await expect(
			conversationEntryDraft({ sessionId: 'x'.repeat(300), role: 'user', at, text: 'x' })
		).rejects.toThrow(/at most 256/);
		await expect(
			conversationEntryDraft({ sessionId: 's', role: 'user', at: 'yesterday', text: 'x' })
		).rejects.toThrow(/RFC 3339/);
	});

	it('keeps usage counts only when they are counts', async () => {
		const draft = await conversationEntryDraft({
			sessionId: 's',
			role: 'assistant',
			at,
			text: 'done',
			model: 'openai/gpt',
			usage: { inputTokens: 10, outputTokens: -1, totalTokens: Number.NaN }
		});
		expect(draft.usage).toEqual({ input_tokens: 10 });
		expect(draft.model).toBe('openai/gpt');
	});
});
