/**
 * A fetch that drops the `user-agent` header the AI SDK adds. Browsers that let a page set it put
 * it in the CORS preflight's Access-Control-Request-Headers, and local servers such as Ollama and
 * LM Studio refuse a preflight that asks for it.
 */
export function withoutUserAgent(
	fetchFunction: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init)
): typeof globalThis.fetch {
	return (input, init) => {
		if (input instanceof Request && input.headers.has('user-agent')) {
			const headers = new Headers(input.headers);
			headers.delete('user-agent');
			return fetchFunction(new Request(input, { headers }), init);
		}
		if (!init?.headers) return fetchFunction(input, init);
		const headers = new Headers(init.headers);
		headers.delete('user-agent');
		return fetchFunction(input, { ...init, headers });
	};
}
