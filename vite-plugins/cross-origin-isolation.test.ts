import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as productionServer from '../server.js';
import viteConfig from '../vite.config.js';
import {
	crossOriginIsolation,
	crossOriginIsolationHeaders,
	setCrossOriginIsolationHeaders
} from './cross-origin-isolation.js';

const expectedHeaders = {
	'Cross-Origin-Opener-Policy': 'same-origin',
	'Cross-Origin-Embedder-Policy': 'require-corp',
	'Cross-Origin-Resource-Policy': 'same-origin'
};

function fakeResponse() {
	const headers = new Map<string, string>();
	return {
		headers,
		response: {
			setHeader: (name: string, value: string) => headers.set(name, value)
		} as unknown as ServerResponse
	};
}

describe('cross-origin isolation middleware', () => {
	it('sets COOP, COEP and CORP, then hands on to the next middleware', () => {
		const { headers, response } = fakeResponse();
		const next = vi.fn();
		setCrossOriginIsolationHeaders({} as IncomingMessage, response, next);
		expect(Object.fromEntries(headers)).toEqual(expectedHeaders);
		expect(next).toHaveBeenCalledOnce();
	});

	it('is registered on both the dev and the preview server', () => {
		const plugin = crossOriginIsolation();
		for (const hook of [plugin.configureServer, plugin.configurePreviewServer]) {
			const use = vi.fn();
			const hookFunction = typeof hook === 'function' ? hook : hook?.handler;
			if (hookFunction === undefined) throw new Error('missing server hook');
			// Registering inside the hook (no returned post-hook) is what puts it before SvelteKit.
			const returned = (hookFunction as (server: unknown) => unknown)({ middlewares: { use } });
			expect(returned).toBeUndefined();
			expect(use).toHaveBeenCalledWith(setCrossOriginIsolationHeaders);
		}
	});

	it('comes before sveltekit() in vite.config.ts', async () => {
		// sveltekit() resolves to a nested array of plugins; walk it without Vite's deep option types.
		const names: unknown[] = [];
		const collectNames = async (entry: unknown): Promise<void> => {
			const resolved: unknown = await entry;
			if (Array.isArray(resolved)) {
				for (const nested of resolved) await collectNames(nested);
			} else if (resolved && typeof resolved === 'object' && 'name' in resolved) {
				names.push(resolved.name);
			}
		};
		await collectNames(viteConfig.plugins);
		const ownIndex = names.indexOf('threadline:cross-origin-isolation');
		const firstKitIndex = names.findIndex(
			(name) => typeof name === 'string' && name.startsWith('vite-plugin-sveltekit')
		);
		expect(ownIndex).toBeGreaterThanOrEqual(0);
		expect(firstKitIndex).toBeGreaterThan(ownIndex);
	});
});

describe('server.js', () => {
	let server: Server | undefined;

	afterEach(async () => {
		await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
		server = undefined;
	});

	async function serve(
		handler: (request: IncomingMessage, response: ServerResponse, next: () => void) => void
	): Promise<string> {
		server = createServer(productionServer.withCrossOriginIsolation(handler));
		await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		return `http://127.0.0.1:${port}`;
	}

	it('uses the same headers as the Vite plugin', () => {
		expect(productionServer.crossOriginIsolationHeaders).toEqual(crossOriginIsolationHeaders);
		expect(crossOriginIsolationHeaders).toEqual(expectedHeaders);
	});

	it('adds the headers before the handler runs', async () => {
		const origin = await serve((_request, response) => {
			response.setHeader('Content-Type', 'text/javascript');
			response.end('export {};');
		});
		const response = await fetch(`${origin}/_app/immutable/entry/start.js`);
		expect(response.status).toBe(200);
		expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
		expect(response.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
		expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
		expect(response.headers.get('content-type')).toBe('text/javascript');
	});

	it('answers 404, still isolated, when the handler passes the request on', async () => {
		const origin = await serve((_request, _response, next) => next());
		const response = await fetch(`${origin}/missing`);
		expect(response.status).toBe(404);
		expect(await response.text()).toBe('Not found');
		expect(response.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
	});

	it.each([
		[undefined, 3000],
		['', 3000],
		['4173', 4173],
		['0', 0]
	])('reads PORT=%j as %d', (text, port) => {
		expect(productionServer.parsePort(text)).toBe(port);
	});

	it.each(['abc', '-1', '65536', '80.5'])('rejects PORT=%j with a clear message', (text) => {
		expect(() => productionServer.parsePort(text)).toThrow(
			`PORT must be an integer between 0 and 65535, got "${text}"`
		);
	});
});
