import type { LedgerEventDraft } from '../ledger/ledger-event.js';
import { agentNotesPath } from '../pipeline/governance-state.js';
import type { PostHook, PostHookContext } from '../pipeline/hook-types.js';

const lessonsHeading = '## Lessons';

/**
 * Lessons go to the shared `.orchestration/AGENT.md` so every session (and the next learner) reads
 * them: the ones the agent records, and one for every command the agent ran that failed.
 */
export const lessonHook: PostHook = {
	name: 'lessons',
	priority: 20,
	async run(context: PostHookContext): Promise<void> {
		const lessons: { intent_id: string | null; lesson: string; category: string }[] = [];
		for (const event of context.callEvents) {
			if (event.type === 'lesson-record') lessons.push(event);
		}
		const { call, outcome } = context;
		if (call.tool === 'execute_command' && !outcome.ok && outcome.error.code === 'command_failed') {
			const firstLine =
				(outcome.commandOutput ?? '').split('\n').find((line) => line.trim()) ?? 'no output';
			const draft: LedgerEventDraft = {
				type: 'lesson-record',
				session_id: context.session.id,
				intent_id: context.session.activeIntentId,
				lesson: `\`${String(call.input.command)}\` failed with exit code ${outcome.exitCode ?? '?'}: ${firstLine.slice(0, 200)}`,
				category: 'command-failure',
				source: 'command-failure'
			};
			context.emit(draft);
			lessons.push(draft);
		}
		if (lessons.length === 0) return;
		await appendLessons(context, lessons);
	}
};

export async function appendLessons(
	context: PostHookContext,
	lessons: { intent_id: string | null; lesson: string; category: string }[]
): Promise<void> {
	const existing = (await context.fs.stat(agentNotesPath))
		? await context.fs.readTextFile(agentNotesPath)
		: '# AGENT.md\n\nShared notes for every agent session in this workspace.\n';
	let text = existing.endsWith('\n') ? existing : `${existing}\n`;
	if (!text.includes(`\n${lessonsHeading}\n`) && !text.startsWith(`${lessonsHeading}\n`)) {
		text += `\n${lessonsHeading}\n\n`;
	}
	const timestamp = context.nowIso();
	for (const lesson of lessons) {
		const where = lesson.intent_id ? `${lesson.intent_id}, ` : '';
		text += `- ${timestamp} (${where}${lesson.category}): ${lesson.lesson.replace(/\s*\n\s*/g, ' ')}\n`;
	}
	await context.fs.writeFile(agentNotesPath, text);
}
