import { contentHash } from '../hashing/sha256.js';
import type { ClassLedgerBirth, LedgerEventDraft } from '../ledger/ledger-event.js';
import { hookPolicyPath } from '../policies/hook-policy-schema.js';
import { formatHookPolicyError } from '../policies/parse-hook-policy.js';
import { agentNotesPath } from './governance-state.js';
import type { PipelineParts } from './pipeline-parts.js';

/**
 * Records the starting workspace so verify can tell recorded changes from unrecorded ones.
 * issue 7 (verify): `paths` should include `.orchestration/` and `.git/` (verify checks both);
 * `links` (path → target) are the workspace's symbolic links, never followed; the starting
 * text of `.orchestration/AGENT.md` goes in too, so verify can recompute AGENT.md.
 */
export async function recordWorkspaceSnapshot(
	parts: PipelineParts,
	paths: string[],
	sessionId: string,
	extra: { links?: Record<string, string>; classLedger?: ClassLedgerBirth | null }
): Promise<void> {
	const hashes: Record<string, string> = {};
	for (const path of [...paths].sort()) {
		const hash = await parts.files.hashOf(path);
		if (hash !== null) hashes[path] = hash;
	}
	const texts: Record<string, string> = {};
	if ((await parts.options.fs.stat(agentNotesPath))?.kind === 'file') {
		texts['AGENT.md'] = await parts.options.fs.readTextFile(agentNotesPath);
	}
	const release = await parts.mutex.lock();
	try {
		await parts.options.ledger.append([
			{
				type: 'workspace-snapshot',
				session_id: sessionId,
				files: hashes,
				...(extra.links && Object.keys(extra.links).length ? { links: extra.links } : {}),
				texts,
				...(extra.classLedger ? { class_ledger: extra.classLedger } : {})
			}
		]);
	} finally {
		release();
	}
}

/**
 * Loads the scenario's `.orchestration/hooks.yaml` (`null`: none) and records which policy now
 * governs the session, with its hash, so a grader can tell. A broken policy fails closed.
 */
export async function loadHookPolicy(
	parts: PipelineParts,
	text: string | null,
	by: 'workspace' | 'human'
): Promise<void> {
	const release = await parts.mutex.lock();
	try {
		const draft = await hookPolicyDraft(parts, text, by);
		// A reload of the same workspace is not a new policy: record only what changed.
		const events = await parts.options.ledger.events();
		const last = events.findLast((event) => event.type === 'hook-policy-load');
		const unchanged =
			last?.type === 'hook-policy-load'
				? last.policy_hash === draft.policy_hash
				: draft.policy_hash === null;
		if (!unchanged) await parts.writer.append([draft]);
	} finally {
		release();
	}
}

/** Loads the policy text into the governance state and describes it for the ledger. */
export async function hookPolicyDraft(
	parts: PipelineParts,
	text: string | null,
	by: 'workspace' | 'human'
): Promise<Extract<LedgerEventDraft, { type: 'hook-policy-load' }>> {
	const policy = parts.state.hookPolicy;
	const loaded = policy.load(text);
	policy.hash = text === null ? null : await contentHash(text);
	return {
		type: 'hook-policy-load',
		session_id: 'workspace',
		path: hookPolicyPath,
		policy_hash: policy.hash,
		ok: loaded.ok,
		rules: policy.policy.rules.length,
		...(loaded.ok ? {} : { errors: loaded.errors.map(formatHookPolicyError) }),
		by
	};
}
