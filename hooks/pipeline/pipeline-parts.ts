import type { GovernanceState } from './governance-state.js';
import type { HookRegistry } from './hook-registry.js';
import type { FileHashLookup } from './hook-types.js';
import type { Mutex } from './mutex.js';
import type { PipelineLedgerWriter } from './pipeline-ledger-writer.js';
import type { ToolPipelineOptions } from './pipeline-options.js';
import { activeIntentsPath } from './governance-state.js';

/**
 * What every part of the pipeline shares (the agent's calls, the person's changes, the
 * workspace records): one lock, one governance state, one ledger writer. Built once by
 * ToolPipeline; the parts are functions over it, so each concept lives in its own file.
 */
export interface PipelineParts {
	readonly options: ToolPipelineOptions;
	readonly state: GovernanceState;
	readonly registry: HookRegistry;
	readonly files: FileHashLookup & { invalidate?(path: string): void };
	readonly mutex: Mutex;
	readonly writer: PipelineLedgerWriter;
}

/**
 * A person may edit the intents in the intents editor: governance follows at once. Invalid
 * YAML keeps the last valid intents in force (see GovernanceState.reloadIntents). Protection
 * is not followed here: every writer refuses `.intentignore`, and the protected set changes
 * only with setIntentProtection, so no recorded write can change it as a side effect.
 */
export function followGovernanceFile(
	parts: PipelineParts,
	path: string,
	content: Uint8Array | null
): void {
	if (path === activeIntentsPath && content !== null)
		parts.state.reloadIntents(new TextDecoder().decode(content));
}

export function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
	if (left.byteLength !== right.byteLength) return false;
	for (let index = 0; index < left.byteLength; index++)
		if (left[index] !== right[index]) return false;
	return true;
}

export function textOf(content: Uint8Array | null): string | null {
	return content === null ? null : new TextDecoder().decode(content);
}
