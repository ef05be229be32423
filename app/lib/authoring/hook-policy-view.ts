import type { HookPolicyState } from '../../../hooks/policies/hook-policy-state.js';
import { formatHookPolicyError } from '../../../hooks/policies/parse-hook-policy.js';

export interface HookPolicyRuleRow {
	number: number;
	action: 'deny' | 'ask' | 'allow' | 'run';
	/** "tools: write_to_file · paths: src/** · intents: INT-001" */
	matches: string;
	/** The deny/ask message or the command a run rule runs. */
	detail: string | null;
}

export interface HookPolicyView {
	present: boolean;
	/** `sha256:` + the first 12 hex digits, enough to compare with the ledger. */
	shortHash: string | null;
	hash: string | null;
	rules: HookPolicyRuleRow[];
	/** Where the file is broken (it then blocks every change until fixed). */
	errors: string[];
}

/** What the intents panel shows of `.orchestration/hooks.yaml`: read-only, as the pipeline sees it. */
export function hookPolicyView(state: HookPolicyState): HookPolicyView {
	return {
		present: state.text !== null,
		hash: state.hash,
		shortHash: state.hash ? state.hash.slice(0, 'sha256:'.length + 12) : null,
		errors: state.errors.map(formatHookPolicyError),
		rules: state.policy.rules.map((rule, index) => ({
			number: index + 1,
			action: rule.action,
			matches: Object.entries(rule.match)
				.map(([field, values]) => `${field}: ${(values as string[]).join(', ')}`)
				.join(' · '),
			detail: rule.action === 'run' ? `runs ${rule.run}` : (rule.message ?? null)
		}))
	};
}
