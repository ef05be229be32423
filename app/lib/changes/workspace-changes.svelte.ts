import { checkpointPlan } from '../../../hooks/ledger/checkpoint-plan.js';
import { sessionChanges, type SessionChanges } from '../../../hooks/ledger/file-states.js';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import { restoreCheckpoint } from '../../../hooks/pipeline/restore-checkpoint.js';
import type { ToolPipeline } from '../../../hooks/pipeline/tool-pipeline.js';
import { appDialogs } from '../dialogs/app-dialogs.svelte.js';
import { loadMutationContents } from '../governance-panels/trace-view.js';
import { mutationSides } from '../ledger/mutation-sides.js';
import type { Workspace } from '../workspace/workspace.svelte.js';
import { changeMarksOf, describePlan } from './change-marks.js';
import { checkpointRows, type CheckpointRow } from './checkpoint-rows.js';

export const followAgentKey = 'threadline-follow-agent';

/** What the changes view needs of the agent's runtime (the ledger's events, contents, pipeline). */
export interface ChangesSource {
	/** The ledger's events, reactive (AgentRuntime.events). */
	readonly events: readonly LedgerEvent[];
	readonly pipeline: Pick<ToolPipeline, 'recordHumanChanges'>;
	blob(hash: string): Promise<Uint8Array | null>;
}

/**
 * The session's changes for the IDE: the list and the tree's marks (derived from the ledger),
 * full-width diffs in the editor area, the editor following the agent's writes, and checkpoint
 * restores (confirmed in the app's dialog, recorded through the pipeline as the person's change).
 */
export class WorkspaceChanges {
	/** Open the file the agent just wrote (a setting, on unless the person turned it off). */
	followAgent = $state(readFollowAgent());
	restoring = $state(false);
	readonly changes: SessionChanges;
	readonly checkpoints: CheckpointRow[];

	constructor(
		private readonly source: ChangesSource,
		private readonly workspace: Workspace,
		private readonly notify: (message: string) => void
	) {
		this.changes = $derived(sessionChanges(source.events));
		this.checkpoints = $derived(checkpointRows(source.events));
		workspace.changeSource = () => changeMarksOf(this.changes);
		workspace.showChange = (path) => void this.showSessionDiff(path);
	}

	dispose(): void {
		if (this.workspace.changeSource) this.workspace.changeSource = null;
		if (this.workspace.showChange) this.workspace.showChange = null;
	}

	setFollowAgent(on: boolean): void {
		this.followAgent = on;
		try {
			globalThis.localStorage?.setItem(followAgentKey, on ? 'on' : 'off');
		} catch {
			// Storage refused (private mode, quota): the setting holds for this page.
		}
	}

	/**
	 * Events this tab just recorded: the tree opens the folders of changed files, and when the
	 * setting is on, the editor opens the file the agent wrote last (not while the person has
	 * unsaved edits in the file shown, so their typing is never pulled away).
	 */
	followEvents(events: readonly LedgerEvent[]): void {
		// A restore puts files back as they were: opening every folder it touched is only noise.
		if (this.restoring) return;
		let agentWrote: string | null = null;
		for (const event of events) {
			if (event.type !== 'mutation-record') continue;
			const path = event.trace.files[0]?.path;
			if (path === undefined) continue;
			const deleted = event.trace.metadata['dev.threadline'].file_hash === null;
			if (!deleted) this.workspace.reveal(path);
			const byAgent = event.trace.files[0]?.conversations[0]?.contributor.type === 'ai';
			if (byAgent && !deleted) agentWrote = path;
		}
		if (!agentWrote || !this.followAgent) return;
		const shown = this.workspace.activeFile;
		if (shown && shown.content !== shown.savedContent && shown.path !== agentWrote) return;
		void this.workspace.open(agentWrote);
	}

	/** The diff of a file from the start of the session to now, full width in the editor area. */
	async showSessionDiff(path: string): Promise<void> {
		const change = this.changes.files.find((candidate) => candidate.path === path);
		if (!change) {
			this.notify(`${path} has no changes in this session.`);
			return;
		}
		await this.showDiff(
			path,
			`Changes to ${path} in this session`,
			change.before,
			change.after,
			this.changes.baseSeq !== null
		);
	}

	/** The diff of one recorded change (a trace event). */
	async showEventDiff(seq: number): Promise<void> {
		const sides = mutationSides(this.source.events, seq);
		if (!sides) {
			this.notify(`Event #${seq} changed no file.`);
			return;
		}
		await this.showDiff(
			sides.path,
			`Changes to ${sides.path} (event #${seq})`,
			sides.before,
			sides.after,
			sides.beforeKnown
		);
	}

	/** The diff of what one tool call changed (its last recorded file change). */
	async showToolCallDiff(toolCallId: string): Promise<void> {
		const record = [...this.source.events]
			.reverse()
			.find(
				(event) =>
					event.type === 'mutation-record' &&
					event.trace.metadata['dev.threadline'].tool_call_id === toolCallId
			);
		if (!record) {
			this.notify('This call changed no file.');
			return;
		}
		await this.showEventDiff(record.seq);
	}

	/**
	 * "Restore to here" (and "Reset step", with its own wording): asks first, then restores
	 * through the pipeline (a recorded change).
	 */
	async restore(seq: number, wording?: { title: string; question: string }): Promise<boolean> {
		if (this.restoring) return false;
		const planned = checkpointPlan(this.source.events, seq);
		if (!planned.ok) {
			this.notify(planned.reason);
			return false;
		}
		const confirmed = await appDialogs.confirm({
			title: wording?.title ?? `Restore to event #${seq}`,
			message: describePlan(planned.plan, this.workspace.dirtyCount, wording?.question),
			confirmLabel: 'Restore',
			danger: true
		});
		if (!confirmed) return false;
		this.restoring = true;
		try {
			const result = await restoreCheckpoint({
				events: this.source.events,
				seq,
				content: (hash) => this.source.blob(hash),
				pipeline: this.source.pipeline
			});
			if (!result.ok) {
				this.notify(result.reason);
				return false;
			}
			const files = result.events.filter((event) => event.type === 'mutation-record').length;
			this.notify(
				files === 0
					? `Nothing to restore: the files are already as they were after event #${seq}.`
					: `Restored the workspace to event #${seq}: ${files} file${files === 1 ? '' : 's'} changed, recorded in the ledger as your change.`
			);
			return true;
		} finally {
			this.restoring = false;
		}
	}

	private async showDiff(
		path: string,
		title: string,
		before: string | null,
		after: string | null,
		beforeKnown: boolean
	): Promise<void> {
		const contents = await loadMutationContents(
			{ beforeHash: before, afterHash: after, beforeKnown },
			(hash) => this.source.blob(hash)
		);
		this.workspace.showDiff(
			contents.kind === 'diff'
				? {
						path,
						title,
						original: contents.original,
						modified: contents.modified,
						unavailable: null
					}
				: { path, title, original: null, modified: null, unavailable: contents.reason }
		);
	}
}

function readFollowAgent(): boolean {
	try {
		return globalThis.localStorage?.getItem(followAgentKey) !== 'off';
	} catch {
		return true;
	}
}
