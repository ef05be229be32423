import { appendLessons, type LessonLine } from '../ledger/agent-notes.js';
import type { LedgerEventDraft } from '../ledger/ledger-event.js';
import { sanitizeSharedText } from '../ledger/shared-text.js';
import { agentNotesPath } from '../pipeline/governance-state.js';
import type { PostHook, PostHookContext } from '../pipeline/hook-types.js';

/** A 1 MB command must not become a 1 MB lesson (in the ledger or in AGENT.md). */
const maximumCommandLength = 200;
const maximumOutputLineLength = 200;

/**
 * Lessons go to the shared `.orchestration/AGENT.md` so every session (and the next learner) reads
 * them: the ones the agent records, and one for every command the agent ran that failed. The file
 * is rendered by `appendLessons`, the same function the export and verify use, so it can be
 * recomputed from the ledger byte for byte.
 */
export const lessonHook: PostHook = {
	name: 'lessons',
	priority: 20,
	async run(context: PostHookContext): Promise<void> {
		const lessons: LessonLine[] = [];
		for (const event of context.callEvents) {
			if (event.type === 'lesson-record') lessons.push(event);
		}
		const { call, outcome } = context;
		if (call.tool === 'execute_command' && !outcome.ok && outcome.error.code === 'command_failed') {
			const firstLine =
				(outcome.commandOutput ?? '').split(/\r\n|\r|\n/).find((line) => line.trim()) ??
				'no output';
			const command = sanitizeSharedText(String(call.input.command), maximumCommandLength);
			const output = sanitizeSharedText(firstLine, maximumOutputLineLength);
			const draft: LedgerEventDraft = {
				type: 'lesson-record',
				session_id: context.session.id,
				intent_id: context.session.activeIntentId,
				lesson: `\`${command.replaceAll('`', "'")}\` failed with exit code ${outcome.exitCode ?? '?'}: ${output}`,
				category: 'command-failure',
				source: 'command-failure'
			};
			context.emit(draft);
			lessons.push(draft);
		}
		if (lessons.length === 0) return;
		const existing = (await context.fs.stat(agentNotesPath))
			? await context.fs.readTextFile(agentNotesPath)
			: null;
		await context.fs.writeFile(agentNotesPath, appendLessons(existing, lessons));
	}
};
