/** What a secret becomes in the conversation record. */
export const redactedMark = '[redacted]';

/**
 * Things that look like secrets, whoever's they are. Each keeps the words before the secret (a
 * `Bearer `, a `key=`) so the transcript still reads, and replaces the secret itself. Matched on
 * every string of an entry (text, tool inputs and outputs, object keys), before any size limit
 * or hash, so neither a stored body nor a stored hash is derived from a secret.
 */
const secretPatterns: readonly RegExp[] = [
	// PEM private keys, whole (or to the end of the text when the END line is missing).
	/-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
	// OpenAI, Anthropic (sk-ant-…), OpenRouter (sk-or-…), DeepSeek… keys.
	/(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{8,}/g,
	// Google API keys.
	/(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{20,}/g,
	// GitHub, Slack, Hugging Face, GitLab, Stripe, Groq, xAI tokens.
	/(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|hf_[A-Za-z0-9]{20,}|glpat-[A-Za-z0-9_-]{20,}|[rs]k_(?:live|test)_[A-Za-z0-9]{16,}|gsk_[A-Za-z0-9]{20,}|xai-[A-Za-z0-9]{20,})/g,
	// AWS access key ids.
	/(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])/g,
	// JSON Web Tokens (three base64url parts, the first a JSON header).
	/(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
	// Authorization headers: bearer and basic credentials.
	/(\b(?:Bearer|Basic|Token)\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
	// key=… and token=… in URLs.
	/([?&](?:api[_-]?key|apikey|key|access[_-]?token|token|auth)=)[^&\s"'#]{6,}/gi,
	// Quoted settings: "api_key": "…", apiKey: '…', password = "…" (code that reads a variable is
	// left alone: only a quoted literal is a secret written down).
	/(\b(?:api[_-]?key|apikey|access[_-]?token|auth[_-]?token|client[_-]?secret|secret[_-]?key|password|passwd)["']?\s*[:=]\s*["'])[^"'\s]{6,}(?=["'])/gi,
	// Environment files and shells: OPENAI_API_KEY=…, GITHUB_TOKEN=…, DB_PASSWORD=…
	/(\b[A-Z0-9_]*(?:API_KEY|SECRET|TOKEN|PASSWORD)\s*=\s*["']?)(?![["'])[^\s"']{6,}/g
];

/**
 * `text` with key-like strings, and every `known` secret (the configured API key, plain and
 * URL-encoded), replaced by `[redacted]`. Known secrets shorter than 6 characters are ignored:
 * redacting a short one would blank ordinary words.
 */
export function redactSecretText(text: string, known: readonly string[] = []): string {
	let result = text;
	for (const secret of known) {
		const trimmed = secret.trim();
		if (trimmed.length < 6) continue;
		for (const form of new Set([trimmed, encodeURIComponent(trimmed)]))
			result = result.split(form).join(redactedMark);
	}
	for (const pattern of secretPatterns) {
		result = result.replace(pattern, (match: string, prefix: unknown) =>
			typeof prefix === 'string' && prefix.length < match.length && match.startsWith(prefix)
				? `${prefix}${redactedMark}`
				: redactedMark
		);
	}
	return result;
}

/**
 * A JSON value with every string in it (object keys too) redacted. Values JSON cannot hold
 * (functions, symbols, undefined) are dropped, as JSON would drop them; the depth is bounded
 * (deeper parts become `"[too deep]"`) so a hostile tool output cannot exhaust the stack.
 */
export function redactSecretValue(
	value: unknown,
	known: readonly string[] = [],
	depth = 0
): unknown {
	if (typeof value === 'string') return redactSecretText(value, known);
	if (value === null || typeof value === 'boolean') return value;
	if (typeof value === 'number') return Number.isFinite(value) ? value : null;
	if (typeof value === 'bigint') return value.toString();
	if (typeof value !== 'object') return undefined;
	if (depth >= 64) return '[too deep]';
	if (Array.isArray(value))
		return value.map((item) => {
			const redacted = redactSecretValue(item, known, depth + 1);
			return redacted === undefined ? null : redacted;
		});
	const result: Record<string, unknown> = {};
	for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
		const redacted = redactSecretValue(item, known, depth + 1);
		if (redacted !== undefined) result[redactSecretText(key, known)] = redacted;
	}
	return result;
}
