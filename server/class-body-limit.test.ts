import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getRequest, setResponse } from '@sveltejs/kit/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleBodySizeLimit } from '../server.js';
import { bodySizeLimitFor, parseByteSize } from './body-size-limit.js';
import {
	classConfigFromEnvironment,
	defaultClassLimits,
	type ClassConfig
} from './class-config.js';
import { classRouteOf, handleClassRequest } from './class-http.js';
import { ClassService } from './class-service.js';
import { openEmbeddedDatabase } from './storage/embedded-database.js';
import type { SqlDatabase } from './storage/sql-database.js';
import { classCode, instructorToken } from './testing/class-api-suite.js';
import { largeEvents } from './testing/class-limits-suite.js';

// The class API behind adapter-node's own body limit, read the way adapter-node reads requests
// (@sveltejs/kit/node's getRequest with BODY_SIZE_LIMIT): the limits agree end to end.

const mib = 1024 * 1024;
let folder: string;
let database: SqlDatabase;
const servers: Server[] = [];

beforeAll(async () => {
	folder = mkdtempSync(join(tmpdir(), 'threadline-body-limit-'));
	database = await openEmbeddedDatabase(null);
}, 120_000);

afterAll(async () => {
	for (const server of servers) {
		server.closeAllConnections();
		server.close();
	}
	await database?.close();
	rmSync(folder, { recursive: true, force: true });
});

/** The class API as adapter-node serves it, with adapter-node's body limit. */
async function adapterNodeServer(config: ClassConfig, bodySizeLimit: number): Promise<string> {
	const service = await ClassService.open(config, { database });
	const server = createServer((incoming, outgoing) => {
		void (async () => {
			const request = await getRequest({
				request: incoming,
				base: 'http://127.0.0.1',
				bodySizeLimit
			});
			const route = classRouteOf(new URL(request.url).pathname);
			if (!route) return void outgoing.writeHead(404).end();
			await setResponse(outgoing, await handleClassRequest(service, request, route, '127.0.0.1'));
		})();
	});
	servers.push(server);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const environment = (extra: Record<string, string> = {}): Record<string, string | undefined> => ({
	THREADLINE_CLASS_CODE: classCode,
	THREADLINE_INSTRUCTOR_TOKEN: instructorToken,
	THREADLINE_DATA_DIR: folder,
	...extra
});

async function learner(url: string, name: string): Promise<string> {
	const response = await fetch(`${url}/api/class/join`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ code: classCode, name })
	});
	return ((await response.json()) as { token: string }).token;
}

async function send(url: string, token: string, ledger: string, body: string) {
	const response = await fetch(`${url}/api/class/ledgers/${ledger}/events`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
		body
	});
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers loosely
	return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('request body limits, end to end', () => {
	it('answers 413 with the limit in words when adapter-node stops a body, never 503 “retry later”', async () => {
		// As shipped before: the class API allowed 4 MiB, adapter-node its default 512 KiB.
		const config = classConfigFromEnvironment(environment()) as ClassConfig;
		const url = await adapterNodeServer(
			{ ...config, limits: { ...config.limits, maxBodyBytes: 4 * mib } },
			parseByteSize('512K')
		);
		const token = await learner(url, 'Ada');
		const events = await largeEvents(300, 3000);
		const answer = await send(url, token, 'ledger-body-000001', JSON.stringify({ events }));
		expect(answer.status).toBe(413);
		expect(answer.body).toMatchObject({ error: 'body_too_large', max_body_bytes: 4 * mib });
		expect(answer.body.message).toMatch(/4 MiB/);
	});

	it('takes every body up to the class limit when server.js sets BODY_SIZE_LIMIT, and advertises it', async () => {
		const env = environment();
		expect(settleBodySizeLimit(env)).toBe(String(defaultClassLimits.maxBodyBytes));
		const config = classConfigFromEnvironment(env) as ClassConfig;
		expect(config.limits.maxBodyBytes).toBe(4 * mib);
		const url = await adapterNodeServer(config, parseByteSize(env.BODY_SIZE_LIMIT as string));
		const key = (await (await fetch(`${url}/api/class/key`)).json()) as {
			limits: { max_body_bytes: number; max_events_per_request: number };
		};
		expect(key.limits).toEqual({
			max_body_bytes: 4 * mib,
			max_events_per_request: defaultClassLimits.maxEventsPerBatch
		});
		const token = await learner(url, 'Grace');
		// ~1.5 MiB: between adapter-node's default 512 KiB and the class API's 4 MiB.
		const events = await largeEvents(500, 3000);
		const body = JSON.stringify({ events });
		expect(body.length).toBeGreaterThan(mib);
		const stored = await send(url, token, 'ledger-body-000002', body);
		expect(stored.status).toBe(200);
		expect(stored.body.receipt.seq).toBe(500);
		const tooLarge = await send(
			url,
			token,
			'ledger-body-000002',
			JSON.stringify({ events: await largeEvents(1400, 3000) })
		);
		expect(tooLarge.status).toBe(413);
		expect(tooLarge.body.message).toMatch(/\(4 MiB\)/);
	});

	it('keeps a lower BODY_SIZE_LIMIT set by the operator and advertises that', async () => {
		const env = environment({ BODY_SIZE_LIMIT: '1M' });
		expect(settleBodySizeLimit(env)).toBe('1M');
		const config = classConfigFromEnvironment(env) as ClassConfig;
		expect(config.limits.maxBodyBytes).toBe(mib);
		const url = await adapterNodeServer(config, parseByteSize('1M'));
		const token = await learner(url, 'Linus');
		const answer = await send(
			url,
			token,
			'ledger-body-000003',
			JSON.stringify({ events: await largeEvents(500, 3000) })
		);
		expect(answer).toMatchObject({ status: 413, body: { max_body_bytes: mib } });
		expect(answer.body.message).toMatch(/\(1 MiB\)/);
	});

	it('sizes adapter-node’s limit for the largest of the app’s own caps', () => {
		expect(bodySizeLimitFor({})).toBe(mib);
		expect(bodySizeLimitFor({ THREADLINE_CHAT_MAX_BYTES: '2000000' })).toBe(2_000_000);
		expect(bodySizeLimitFor(environment())).toBe(defaultClassLimits.maxBodyBytes);
		expect(bodySizeLimitFor(environment({ THREADLINE_CLASS_MAX_BODY_BYTES: '8M' }))).toBe(8 * mib);
		// Unparseable: left to the class settings, which stop the server with a sentence.
		expect(bodySizeLimitFor(environment({ THREADLINE_CLASS_MAX_BODY_BYTES: 'lots' }))).toBe(
			defaultClassLimits.maxBodyBytes
		);
		expect(() =>
			classConfigFromEnvironment(environment({ THREADLINE_CLASS_MAX_BODY_BYTES: 'lots' }))
		).toThrow(/THREADLINE_CLASS_MAX_BODY_BYTES must be a positive number of bytes/);
	});
});
