import { createServer, type Server } from 'node:http';
import { Readable } from 'node:stream';
import type { LtiRoute, LtiTool, ScenarioList } from '../lti-tool.js';

const routes: Record<string, LtiRoute> = {
	'/api/lti/login': 'login',
	'/api/lti/launch': 'launch',
	'/api/lti/jwks': 'jwks',
	'/api/lti/deep-link': 'deep-link',
	'/api/lti/scores': 'scores'
};

/**
 * The LTI routes on plain node:http (loopback) for tests: the same `LtiTool.handle` the app's
 * routes call. The tool is read through `tool()` so the server can start before it is opened
 * (its URL goes into the tool's configuration).
 */
export async function startToolNodeServer(
	tool: () => LtiTool | null,
	scenarios: ScenarioList
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
	const server = createServer((incoming, outgoing) => {
		const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
		const route = routes[url.pathname];
		const current = tool();
		if (!route || !current) {
			outgoing.writeHead(404).end('not found');
			return;
		}
		const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
		const request = new Request(url, {
			method: incoming.method,
			headers: incoming.headers as Record<string, string>,
			body: hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : undefined,
			duplex: 'half'
		} as RequestInit);
		current.handle(request, route, scenarios).then(
			async (response) => {
				outgoing.writeHead(response.status, Object.fromEntries(response.headers));
				outgoing.end(Buffer.from(await response.arrayBuffer()));
			},
			(error: unknown) => outgoing.writeHead(500).end(String(error))
		);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	return {
		url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
		server,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}
