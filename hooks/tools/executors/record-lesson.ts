import type { Executor } from './execution-context.js';

export const recordLesson: Executor = async (context) => {
	const lesson = String(context.call.input.lesson).trim();
	const category = String(context.call.input.category ?? 'general');
	context.emit({
		type: 'lesson-record',
		session_id: context.session.id,
		intent_id: context.session.activeIntentId,
		lesson,
		category,
		source: 'agent'
	});
	return { ok: true, output: { recorded: true, category }, changes: [] };
};
