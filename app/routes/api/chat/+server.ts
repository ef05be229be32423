import { env } from '$env/dynamic/private';
import { handleChatRequest } from '$lib/agent/server-chat-handler.js';
import type { RequestHandler } from './$types';

/**
 * The "Server" provider: the model is called from here with the key in the server's environment
 * (THREADLINE_PROVIDER, THREADLINE_MODEL, the provider's key variable), so it never reaches the
 * page. The page sends the conversation and the system prompt it built from its governance state.
 */
export const POST: RequestHandler = ({ request }) => handleChatRequest(request, env);
