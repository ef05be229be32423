import { env } from '$env/dynamic/private';
import { ChatRequestGuard } from '$lib/agent/chat-request-guard.js';
import { handleChatRequest } from '$lib/agent/server-chat-handler.js';
import { learnerTokenHeader } from '$lib/class/class-membership.js';
import { classService } from '../../../../server/class-runtime.js';
import type { RequestHandler } from './$types';

/** One per server process: the rate limit counts every request this process answers. */
const guard = new ChatRequestGuard();

/**
 * The "Server" provider: the model is called from here with the key in the server's environment
 * (THREADLINE_PROVIDER, THREADLINE_MODEL, the provider's key variable), so it never reaches the
 * page. The page sends the conversation and the system prompt it built from its governance state.
 * A class passphrase, a size cap and a per-client rate limit protect the key (chat-request-guard).
 * In class mode, a learner's request (learner token header) also records a digest of every tool
 * call the model returned, so graders can check AI changes answer calls the model really made.
 */
export const POST: RequestHandler = async ({ request, getClientAddress }) => {
	const admitted = await guard.admit(request, getClientAddress(), env);
	if (!admitted.ok) return admitted.response;
	const learnerToken = admitted.request.headers.get(learnerTokenHeader);
	const service = learnerToken ? await classService(env) : null;
	return handleChatRequest(admitted.request, env, {
		onToolCalls: service
			? async (calls, modelId) => {
					await service.recordModelToolCalls(learnerToken, modelId, calls);
				}
			: undefined
	});
};
