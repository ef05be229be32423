import type { Intent, IntentsDocument } from '../intents/intent.js';
import { parseIntents, type IntentsError } from '../intents/parse-intents.js';
import { parseIntentIgnore } from '../intents/intent-ignore.js';
import { compileScope, type ScopeMatcher } from '../scope/scope-matcher.js';
import { HookPolicyState } from '../policies/hook-policy-state.js';
import { createAgentSession, type AgentSession } from './agent-session.js';
import type { ApprovalPolicy } from './approval-policy.js';

export const activeIntentsPath = '.orchestration/active_intents.yaml';
export const intentIgnorePath = '.intentignore';
export const agentNotesPath = '.orchestration/AGENT.md';
export const intentMapPath = '.orchestration/intent_map.md';

/**
 * The shared, mutable governance state of one workspace: the intents (reloaded whenever the YAML
 * changes), protected intents, agent sessions, intent locks and the approval policy.
 * Plain TypeScript so it runs in Node; the app wraps it in runes.
 */
export class GovernanceState {
	intentsYaml: string;
	intents: IntentsDocument;
	/** Errors of the last YAML that failed to parse; the previous valid intents stay in force. */
	intentsErrors: IntentsError[] = [];
	protectedIntentIds: Set<string>;
	approvalPolicy: ApprovalPolicy;
	/** The scenario's `.orchestration/hooks.yaml`; loaded through ToolPipeline.loadHookPolicy. */
	readonly hookPolicy = new HookPolicyState();
	readonly sessions = new Map<string, AgentSession>();
	/** Intent id → sessions holding it. */
	readonly locks = new Map<string, Set<string>>();
	private scopeMatcher: ScopeMatcher;

	constructor(options: {
		intentsYaml: string;
		intentIgnore?: string;
		approvalPolicy?: ApprovalPolicy;
	}) {
		const parsed = parseIntents(options.intentsYaml);
		if (!parsed.ok) {
			const first = parsed.errors[0];
			throw new Error(
				`${activeIntentsPath} is not valid: ${first ? `${first.line}:${first.column} ${first.message}` : 'unknown error'}`
			);
		}
		this.intentsYaml = options.intentsYaml;
		this.intents = parsed.document;
		this.scopeMatcher = compileScope(parsed.document);
		this.protectedIntentIds = parseIntentIgnore(options.intentIgnore ?? '');
		this.approvalPolicy = options.approvalPolicy ?? 'destructive';
	}

	/** Takes new YAML; on errors keeps the last valid intents so governance never falls open. */
	reloadIntents(yamlText: string): { ok: true } | { ok: false; errors: IntentsError[] } {
		const parsed = parseIntents(yamlText);
		if (!parsed.ok) {
			this.intentsErrors = parsed.errors;
			return { ok: false, errors: parsed.errors };
		}
		this.intentsYaml = yamlText;
		this.intents = parsed.document;
		this.intentsErrors = [];
		this.scopeMatcher = compileScope(parsed.document);
		return { ok: true };
	}

	reloadIntentIgnore(text: string): void {
		this.protectedIntentIds = parseIntentIgnore(text);
	}

	get scope(): ScopeMatcher {
		return this.scopeMatcher;
	}

	intent(id: string): Intent | undefined {
		return this.intents.intents.find((intent) => intent.id === id);
	}

	session(id: string, modelId = 'unknown/unknown'): AgentSession {
		let session = this.sessions.get(id);
		if (!session) {
			session = createAgentSession(id, modelId);
			this.sessions.set(id, session);
		}
		return session;
	}

	holdersOf(intentId: string): ReadonlySet<string> {
		return this.locks.get(intentId) ?? new Set();
	}

	/** Moves the session's lock to `intentId`, releasing the one it held before. */
	acquire(session: AgentSession, intentId: string): void {
		if (session.activeIntentId) this.release(session);
		let holders = this.locks.get(intentId);
		if (!holders) {
			holders = new Set();
			this.locks.set(intentId, holders);
		}
		holders.add(session.id);
		session.activeIntentId = intentId;
	}

	release(session: AgentSession): void {
		const held = session.activeIntentId;
		if (!held) return;
		this.locks.get(held)?.delete(session.id);
		session.activeIntentId = null;
	}
}
