import type { LedgerEvent } from '../ledger/ledger-event.js';
import { createTestPipeline } from './pipeline-test-kit.js';

/**
 * A short governed session with its conversation, for the tests of conversation.jsonl, the
 * transcript and the OpenTelemetry export: the learner asks, the model explains, selects the
 * intent, writes a file in scope, tries one out of scope (denied by the scope hook), and answers.
 */
export async function conversationSession(): Promise<LedgerEvent[]> {
	const kit = createTestPipeline({ files: { 'src/auth/jwt.ts': 'export const a = 1;\n' } });
	const { pipeline } = kit;
	await pipeline.recordWorkspaceSnapshot(['src/auth/jwt.ts', '.orchestration/active_intents.yaml']);
	const session = 'builder';
	const model = 'openai/gpt-test';
	const say = (role: 'user' | 'assistant', text: string) =>
		pipeline.recordConversation([
			{ sessionId: session, role, text, model: role === 'user' ? null : model }
		]);
	const call = async (id: string, tool: string, input: Record<string, unknown>) => {
		await pipeline.recordConversation([
			{ sessionId: session, role: 'assistant', toolCall: { id, name: tool, input }, model }
		]);
		const outcome = await pipeline.run({ sessionId: session, toolCallId: id, tool, input });
		await pipeline.recordConversation([
			{
				sessionId: session,
				role: 'tool',
				toolResult: outcome.ok
					? { id, ok: true, output: outcome.output }
					: { id, ok: false, error: outcome.error }
			}
		]);
	};
	await say('user', 'Please make the token expire after an hour.');
	await say('assistant', 'I will select INT-001 and change jwt.ts.');
	await call('call-1', 'select_active_intent', { intent_id: 'INT-001' });
	await call('call-2', 'write_to_file', {
		path: 'src/auth/expiry.ts',
		content: 'export const expiresIn = 3600;\n',
		mutation_class: 'INTENT_EVOLUTION',
		intent_id: 'INT-001'
	});
	await say('user', 'Also tidy the users table.');
	await call('call-3', 'write_to_file', {
		path: 'src/db/users.ts',
		content: 'export const x = 2;\n',
		mutation_class: 'INTENT_EVOLUTION',
		intent_id: 'INT-001'
	});
	await pipeline.recordConversation([
		{
			sessionId: session,
			role: 'assistant',
			text: 'That file is outside my scope.',
			model,
			usage: { inputTokens: 120, outputTokens: 30 }
		}
	]);
	return [...(await kit.ledger.events())];
}
