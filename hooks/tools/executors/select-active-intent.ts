import { buildIntentContext } from '../../context/intent-context.js';
import type { Executor } from './execution-context.js';

export const selectActiveIntent: Executor = async (context) => {
	const intentId = String(context.call.input.intent_id);
	const intent = context.state.intent(intentId);
	if (!intent) throw new Error(`intent ${intentId} vanished between check and execution`);
	context.state.acquire(context.session, intentId);
	context.emit({
		type: 'intent-select',
		session_id: context.session.id,
		intent_id: intentId,
		tool_call_id: context.call.toolCallId
	});
	const history = await context.history();
	const intentContext = buildIntentContext({
		intent,
		recentTrace: history.trace.filter(
			(record) => record.metadata['dev.threadline'].intent_id === intentId
		),
		lessons: history.lessons.filter(
			(lesson) => lesson.intent_id === intentId || lesson.intent_id === null
		)
	});
	return { ok: true, output: intentContext, changes: [] };
};
