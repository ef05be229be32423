/**
 * The `<intent_context>` block the agent receives when it selects an intent (and in every system
 * prompt while the intent is active): what it may touch, what it must respect, how it will be
 * judged, what it changed recently and what was learned. The block has a character budget; the
 * intent itself is never cut, only the oldest history.
 */
import type { AcceptanceCriterion, Intent } from '../intents/intent.js';
import type { AgentTraceRecord, TraceRange } from '../ledger/agent-trace-record.js';
import { escapeXml, escapeXmlAttribute } from './escape-xml.js';

export interface IntentContextLesson {
	lesson: string;
	category: string;
}

export interface IntentContextInput {
	intent: Intent;
	/** Trace records in any order; only those of this intent are used, newest last by `seq`. */
	recentTrace: AgentTraceRecord[];
	/** Lessons in the order they were recorded, oldest first. */
	lessons: IntentContextLesson[];
	/** Upper bound for the whole block, in characters; 6000 when omitted. */
	budgetCharacters?: number;
}

export const defaultIntentContextBudget = 6000;
/** "Recent" means at most this many file changes, before the budget trims further. */
export const maximumRecentChanges = 10;
/** A change touching many ranges lists this many and then says how many more there are. */
const maximumRangesPerChange = 8;

export function buildIntentContext(input: IntentContextInput): string {
	const budget = input.budgetCharacters ?? defaultIntentContextBudget;
	if (!Number.isFinite(budget) || budget < 0) {
		throw new RangeError(`budgetCharacters must be a non-negative number, got ${budget}`);
	}
	const intentBlock = renderIntent(input.intent);
	const allChanges = changesOf(input.intent.id, input.recentTrace);
	const changes = allChanges.slice(-maximumRecentChanges);
	const lessons = input.lessons.map(renderLesson);
	let omittedChanges = allChanges.length - changes.length;
	let omittedLessons = 0;

	const render = (): string =>
		[
			'<intent_context>',
			intentBlock,
			renderSection('recent_changes', changes, omittedChanges, 'older changes'),
			renderSection('lessons', lessons, omittedLessons, 'older lessons'),
			'</intent_context>'
		].join('\n');

	// Lengths are tracked incrementally so a long history costs linear time, not a render per drop.
	let length = render().length;
	while (length > budget && (changes.length > 0 || lessons.length > 0)) {
		const fromChanges = changes.length > 0;
		const removed = fromChanges ? changes.shift()! : lessons.shift()!;
		const noteBefore = fromChanges
			? omissionNote(omittedChanges, 'older changes')
			: omissionNote(omittedLessons, 'older lessons');
		if (fromChanges) omittedChanges += 1;
		else omittedLessons += 1;
		const noteAfter = fromChanges
			? omissionNote(omittedChanges, 'older changes')
			: omissionNote(omittedLessons, 'older lessons');
		length += lineLength(noteAfter) - lineLength(noteBefore) - lineLength(removed);
		if (length <= budget) length = render().length;
	}
	return render();
}

function renderIntent(intent: Intent): string {
	const lines = [
		`  <intent id="${escapeXmlAttribute(intent.id)}" name="${escapeXmlAttribute(intent.name)}" status="${escapeXmlAttribute(intent.status)}">`,
		renderList(
			'constraints',
			intent.constraints.map((constraint) => `<constraint>${escapeXml(constraint)}</constraint>`)
		),
		renderList(
			'owned_scope',
			intent.owned_scope.map((pattern) => `<pattern>${escapeXml(pattern)}</pattern>`)
		),
		renderList('acceptance_criteria', intent.acceptance_criteria.map(renderCriterion)),
		'  </intent>'
	];
	return lines.join('\n');
}

function renderList(tag: string, items: string[]): string {
	if (items.length === 0) return `    <${tag}/>`;
	return [`    <${tag}>`, ...items.map((item) => `      ${item}`), `    </${tag}>`].join('\n');
}

function renderCriterion(criterion: AcceptanceCriterion): string {
	if (typeof criterion === 'string') return `<criterion>${escapeXml(criterion)}</criterion>`;
	return `<criterion run="${escapeXmlAttribute(criterion.run)}">${escapeXml(criterion.description)}</criterion>`;
}

function renderSection(tag: string, entries: string[], omitted: number, what: string): string {
	if (entries.length === 0 && omitted === 0) return `  <${tag}/>`;
	const note = omissionNote(omitted, what);
	const lines = [`  <${tag}>`];
	if (note !== '') lines.push(note);
	lines.push(...entries, `  </${tag}>`);
	return lines.join('\n');
}

function omissionNote(omitted: number, what: string): string {
	if (omitted === 0) return '';
	return `    <omitted count="${omitted}">${what} not shown (context budget)</omitted>`;
}

/** A line's share of the rendered block: its characters plus the newline joining it. */
function lineLength(line: string): number {
	return line === '' ? 0 : line.length + 1;
}

function renderLesson(lesson: IntentContextLesson): string {
	return `    <lesson category="${escapeXmlAttribute(lesson.category)}">${escapeXml(lesson.lesson)}</lesson>`;
}

/** One rendered `<change>` per file of each of the intent's records, oldest first. */
function changesOf(intentId: string, trace: AgentTraceRecord[]): string[] {
	const records = trace
		.filter((record) => record.metadata['dev.threadline'].intent_id === intentId)
		.map((record, position) => ({ record, position }))
		// Sort by chain position; fall back to input order so equal `seq` values stay stable.
		.sort(
			(left, right) =>
				left.record.metadata['dev.threadline'].seq - right.record.metadata['dev.threadline'].seq ||
				left.position - right.position
		)
		.map(({ record }) => record);
	const changes: string[] = [];
	for (const record of records) {
		const metadata = record.metadata['dev.threadline'];
		for (const file of record.files) {
			const ranges = file.conversations.flatMap((conversation) => conversation.ranges);
			const attributes = [
				`path="${escapeXmlAttribute(file.path)}"`,
				`operation="${escapeXmlAttribute(metadata.operation)}"`
			];
			const lines = formatRanges(ranges);
			if (lines !== '') attributes.push(`lines="${lines}"`);
			attributes.push(
				`class="${escapeXmlAttribute(metadata.mutation_class)}"`,
				`timestamp="${escapeXmlAttribute(record.timestamp)}"`
			);
			changes.push(`    <change ${attributes.join(' ')}/>`);
		}
	}
	return changes;
}

/** `3-10,15` for ranges 3–10 and 15; sorted, with a count of any ranges beyond the first few. */
export function formatRanges(ranges: TraceRange[]): string {
	const sorted = [...ranges].sort(
		(left, right) => left.start_line - right.start_line || left.end_line - right.end_line
	);
	const shown = sorted
		.slice(0, maximumRangesPerChange)
		.map((range) =>
			range.start_line === range.end_line
				? String(range.start_line)
				: `${range.start_line}-${range.end_line}`
		);
	const hidden = sorted.length - shown.length;
	if (hidden > 0) shown.push(`+${hidden} more`);
	return shown.join(',');
}
