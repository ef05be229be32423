import type { AgentTraceRecord } from './agent-trace-record.js';
import type { LedgerEvent } from './ledger-event.js';
import type { Intent } from '../intents/intent.js';

interface FileChange {
	path: string;
	traceSeq: number;
	timestamp: string;
	deleted: boolean;
}

interface IntentChanges {
	/** Last INTENT_EVOLUTION change per path. */
	evolved: Map<string, FileChange>;
	refactors: number;
	refactoredPaths: Set<string>;
}

/**
 * `intent_map.md`: per intent, the files it changed by INTENT_EVOLUTION with the trace seq and time
 * of the last change, and how many AST refactors it made. Only ledger content goes in (no clock),
 * so the same ledger always renders the same text.
 */
export function renderIntentMap(
	events: readonly LedgerEvent[],
	intents: readonly Intent[]
): string {
	const byIntent = new Map<string | null, IntentChanges>();
	for (const event of events) {
		if (event.type !== 'mutation-record') continue;
		collect(byIntent, event.trace);
	}

	const lines = ['# Intent map', ''];
	const lastSeq = events.at(-1)?.seq ?? 0;
	lines.push(
		`Generated from ${events.length} ledger event${events.length === 1 ? '' : 's'} (last seq ${lastSeq}). ` +
			'Seq numbers refer to `metadata["dev.threadline"].seq` in `agent_trace.jsonl`.',
		''
	);

	const listed = new Set(intents.map((intent) => intent.id));
	for (const intent of intents) {
		renderSection(
			lines,
			`${intent.id} — ${intent.name} (${intent.status})`,
			byIntent.get(intent.id)
		);
	}
	// Changes under intents no longer in active_intents.yaml must still be visible to a grader.
	const unlisted = [...byIntent.keys()]
		.filter((id): id is string => id !== null && !listed.has(id))
		.sort(compareText);
	for (const id of unlisted) {
		renderSection(lines, `${id} (not in active_intents.yaml)`, byIntent.get(id));
	}
	const withoutIntent = byIntent.get(null);
	if (withoutIntent) renderSection(lines, 'Changes without an intent', withoutIntent);
	if (intents.length === 0 && byIntent.size === 0) {
		lines.push('_No intents and no changes recorded._', '');
	}
	return lines.join('\n');
}

function collect(byIntent: Map<string | null, IntentChanges>, trace: AgentTraceRecord): void {
	const links = trace.metadata['dev.threadline'];
	let changes = byIntent.get(links.intent_id);
	if (!changes) {
		changes = { evolved: new Map(), refactors: 0, refactoredPaths: new Set() };
		byIntent.set(links.intent_id, changes);
	}
	if (links.mutation_class === 'AST_REFACTOR') {
		changes.refactors++;
		for (const file of trace.files) changes.refactoredPaths.add(file.path);
		return;
	}
	for (const file of trace.files) {
		changes.evolved.set(file.path, {
			path: file.path,
			traceSeq: links.seq,
			timestamp: trace.timestamp,
			deleted: links.operation === 'delete'
		});
	}
}

function renderSection(lines: string[], heading: string, changes: IntentChanges | undefined): void {
	lines.push(`## ${escapeMarkdown(heading)}`, '');
	const evolved = [...(changes?.evolved.values() ?? [])].sort((left, right) =>
		compareText(left.path, right.path)
	);
	if (evolved.length === 0) {
		lines.push('_No files changed by INTENT_EVOLUTION._', '');
	} else {
		lines.push('| File | Last change (seq) | Time |', '| --- | --- | --- |');
		for (const change of evolved) {
			const path = `\`${change.path.replaceAll('`', "'")}\`${change.deleted ? ' (deleted)' : ''}`;
			lines.push(`| ${path.replaceAll('|', '\\|')} | ${change.traceSeq} | ${change.timestamp} |`);
		}
		lines.push('');
	}
	const refactors = changes?.refactors ?? 0;
	const refactoredFiles = changes?.refactoredPaths.size ?? 0;
	lines.push(
		`AST refactors: ${refactors}${refactors > 0 ? ` (${refactoredFiles} file${refactoredFiles === 1 ? '' : 's'})` : ''}`,
		''
	);
}

/** Plain code-unit order, the same in every runtime and locale. */
function compareText(left: string, right: string): number {
	return left < right ? -1 : left > right ? 1 : 0;
}

/** Keeps instructor-written names from turning into markdown structure. */
function escapeMarkdown(text: string): string {
	return text.replace(/[\\`*[\]<>#|]/g, '\\$&').replace(/\s+/g, ' ');
}
