import type { HookPolicy } from './hook-policy-schema.js';
import { parseHookPolicy, type HookPolicyError } from './parse-hook-policy.js';

/**
 * The policy in force for a workspace. Unlike the intents (where the last valid file stays in
 * force), a broken policy is NOT replaced by the previous one: the instructor's newest intent is
 * unknown, so destructive calls are refused until the file is fixed (fail closed).
 */
export class HookPolicyState {
	/** The file's text; `null` when the workspace has no policy. */
	text: string | null = null;
	/** `sha256:<hex>` of the text, set by whoever records the load in the ledger. */
	hash: string | null = null;
	policy: HookPolicy = { rules: [] };
	errors: HookPolicyError[] = [];

	get broken(): boolean {
		return this.errors.length > 0;
	}

	load(text: string | null): { ok: true } | { ok: false; errors: HookPolicyError[] } {
		this.text = text;
		this.hash = null;
		if (text === null) {
			this.policy = { rules: [] };
			this.errors = [];
			return { ok: true };
		}
		const parsed = parseHookPolicy(text);
		if (!parsed.ok) {
			this.policy = { rules: [] };
			this.errors = parsed.errors;
			return { ok: false, errors: parsed.errors };
		}
		this.policy = parsed.policy;
		this.errors = [];
		return { ok: true };
	}
}
