import { createServer, type Server } from 'node:http';
import { Readable } from 'node:stream';
import type { ClassService } from './class-service.js';
import { classRouteOf, handleClassRequest } from './class-http.js';

/**
 * The class API on a plain node:http server (no SvelteKit): the same handler the app's routes
 * call, for tests and tools that need the API without a build. Listens on loopback.
 */
export async function startClassNodeServer(
	service: ClassService,
	port = 0
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
	const server = createServer((incoming, outgoing) => {
		const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
		const route = classRouteOf(url.pathname);
		if (!url.pathname.startsWith('/api/class/') || !route) {
			outgoing.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
			return;
		}
		const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
		const request = new Request(url, {
			method: incoming.method,
			headers: incoming.headers as Record<string, string>,
			body: hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : undefined,
			duplex: 'half'
		} as RequestInit);
		handleClassRequest(service, request, route, incoming.socket.remoteAddress ?? 'unknown').then(
			async (response) => {
				outgoing.writeHead(response.status, Object.fromEntries(response.headers));
				outgoing.end(Buffer.from(await response.arrayBuffer()));
			},
			(error: unknown) => {
				outgoing.writeHead(500).end(String(error));
			}
		);
	});
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
	const address = server.address();
	const actualPort = typeof address === 'object' && address ? address.port : port;
	return {
		url: `http://127.0.0.1:${actualPort}`,
		server,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}
