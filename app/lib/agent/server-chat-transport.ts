import { DefaultChatTransport, type UIMessage } from 'ai';
import { learnerTokenHeader, loadMembership } from '../class/class-membership.js';

export const serverChatApi = '/api/chat';

/** What the page posts to `/api/chat`. */
export interface ServerChatRequestBody {
	id: string;
	messages: UIMessage[];
	/** The system prompt, built in the page: the page owns the governance state. */
	system: string;
	trigger: 'submit-message' | 'regenerate-message';
	messageId?: string;
}

export interface ServerChatTransportOptions {
	/** The system prompt, rebuilt every turn (hooks' buildSystemPrompt). */
	systemPrompt: () => string;
	api?: string;
	fetch?: typeof globalThis.fetch;
	/**
	 * The class passphrase (`x-threadline-passphrase`) when the server asks for one (401): the
	 * remembered one, or `ask: true` to ask the person; `null` when there is none to send.
	 */
	passphrase?: (options: { ask: boolean }) => string | null;
}

/**
 * The "Server" provider: the AI SDK's DefaultChatTransport to this app's `/api/chat`, which holds
 * the key in its environment. Refusals from the route (e.g. 503 when no model is configured)
 * become errors whose message is the route's plain sentence rather than its raw JSON.
 */
export function createServerChatTransport<Message extends UIMessage = UIMessage>(
	options: ServerChatTransportOptions
): DefaultChatTransport<Message> {
	const baseFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
	return new DefaultChatTransport<Message>({
		api: options.api ?? serverChatApi,
		fetch: async (input, init) => {
			let response: Response;
			const withPassphrase = (passphrase: string | null): RequestInit | undefined => {
				if (!passphrase) return init;
				const headers = new Headers(init?.headers);
				headers.set('x-threadline-passphrase', passphrase);
				return { ...init, headers };
			};
			try {
				response = await baseFetch(
					input,
					withPassphrase(options.passphrase?.({ ask: false }) ?? null)
				);
				// A class server with a passphrase: ask once, then retry with it.
				if (response.status === 401 && options.passphrase) {
					const given = options.passphrase({ ask: true });
					if (given) response = await baseFetch(input, withPassphrase(given));
				}
			} catch (error) {
				if ((error as { name?: unknown })?.name === 'AbortError') throw error;
				throw new Error(
					'The app’s server could not be reached: check your connection and reload the page.',
					{ cause: error }
				);
			}
			if (response.ok) return response;
			return new Response(await refusalText(response), {
				status: response.status,
				headers: { 'content-type': 'text/plain; charset=utf-8' }
			});
		},
		prepareSendMessagesRequest: ({ id, messages, trigger, messageId }) => {
			const body: ServerChatRequestBody = {
				id,
				messages: messages as UIMessage[],
				system: options.systemPrompt(),
				trigger,
				...(messageId === undefined ? {} : { messageId })
			};
			// Class mode: the route records the model's tool calls under this learner (a witness).
			const membership = typeof localStorage === 'undefined' ? null : loadMembership(localStorage);
			const headers: Record<string, string> = membership
				? { [learnerTokenHeader]: membership.token }
				: {};
			return { body, headers };
		}
	});
}

async function refusalText(response: Response): Promise<string> {
	const text = await response.text().catch(() => '');
	try {
		const parsed = JSON.parse(text) as { error?: unknown };
		if (typeof parsed.error === 'string') return parsed.error;
		const nested = (parsed.error as { message?: unknown } | undefined)?.message;
		if (typeof nested === 'string') return nested;
	} catch {
		// Not JSON: an HTML error page or plain text.
	}
	const plain = text.trim();
	if (plain && !plain.startsWith('<') && plain.length <= 500) return plain;
	return `The app’s server answered ${response.status} to the chat request.`;
}
