import type { LedgerEvent } from './ledger-event.js';
import { sanitizeSharedText } from './shared-text.js';

/**
 * `.orchestration/AGENT.md`: the starting notes (a scenario's, or a default header) followed by
 * one line per lesson, in ledger order. Only ledger content goes in (no clock), so the export
 * and verify recompute exactly the text the lesson hook wrote during the session.
 */
export const defaultAgentNotes =
	'# AGENT.md\n\nShared notes for every agent session in this workspace.\n';
const lessonsHeading = '## Lessons';
export const maximumLessonLength = 500;
const maximumLabelLength = 80;

export interface LessonLine {
	intent_id: string | null;
	lesson: string;
	category: string;
}

/** The notes with `lessons` appended (the heading added once); `existing` null: no file yet. */
export function appendLessons(existing: string | null, lessons: readonly LessonLine[]): string {
	if (lessons.length === 0) return existing ?? '';
	let text = existing ?? defaultAgentNotes;
	if (!text.endsWith('\n')) text += '\n';
	if (!text.includes(`\n${lessonsHeading}\n`) && !text.startsWith(`${lessonsHeading}\n`)) {
		text += `\n${lessonsHeading}\n\n`;
	}
	for (const lesson of lessons) text += lessonLine(lesson);
	return text;
}

/** What AGENT.md holds after every lesson of the ledger, starting from `start`. */
export function renderAgentNotes(start: string | null, events: readonly LedgerEvent[]): string {
	const lessons: LessonLine[] = [];
	for (const event of events) if (event.type === 'lesson-record') lessons.push(event);
	return appendLessons(start, lessons);
}

function lessonLine(lesson: LessonLine): string {
	const intent = lesson.intent_id ? sanitizeSharedText(lesson.intent_id, maximumLabelLength) : '';
	const category = sanitizeSharedText(lesson.category, maximumLabelLength);
	const text = sanitizeSharedText(lesson.lesson, maximumLessonLength);
	return `- (${intent ? `${intent}, ` : ''}${category}): ${text}\n`;
}
