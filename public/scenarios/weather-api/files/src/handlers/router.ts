import type { ApiRequest, ApiResponse, Handler } from '../types/http.js';

const routes: Record<string, Handler> = {
	'GET /health': () => ({ status: 200, body: { ok: true } })
};

export function handle(request: ApiRequest): ApiResponse {
	const handler = routes[`${request.method} ${request.path}`];
	if (!handler) {
		return { status: 404, body: { error: `no route for ${request.method} ${request.path}` } };
	}
	return handler(request);
}
