import { describe, expect, it } from 'vitest';
import { withoutUserAgent } from './without-user-agent.js';

function recorder() {
	const calls: { input: RequestInfo | URL; headers: Headers }[] = [];
	const fetchFunction: typeof fetch = async (input, init) => {
		const headers = input instanceof Request ? input.headers : new Headers(init?.headers);
		calls.push({ input, headers });
		return new Response('ok');
	};
	return { calls, fetchFunction };
}

describe('withoutUserAgent', () => {
	it('drops user-agent from a header record and keeps the rest', async () => {
		const { calls, fetchFunction } = recorder();
		await withoutUserAgent(fetchFunction)('http://localhost:11434/v1/chat/completions', {
			method: 'POST',
			headers: {
				'User-Agent': 'ai-sdk/openai-compatible',
				authorization: 'Bearer x',
				'content-type': 'application/json'
			},
			body: '{}'
		});
		expect(calls[0]?.headers.has('user-agent')).toBe(false);
		expect(calls[0]?.headers.get('authorization')).toBe('Bearer x');
		expect(calls[0]?.headers.get('content-type')).toBe('application/json');
	});

	it('handles Headers objects, header arrays and Request inputs', async () => {
		const { calls, fetchFunction } = recorder();
		const strip = withoutUserAgent(fetchFunction);
		await strip('http://x/', { headers: new Headers({ 'user-agent': 'a', accept: '*/*' }) });
		await strip('http://x/', {
			headers: [
				['user-agent', 'b'],
				['accept', 'text/plain']
			]
		});
		await strip(new Request('http://x/', { headers: { 'user-agent': 'c', accept: 'x/y' } }));
		expect(calls.map((call) => call.headers.has('user-agent'))).toEqual([false, false, false]);
		expect(calls.map((call) => call.headers.get('accept'))).toEqual(['*/*', 'text/plain', 'x/y']);
	});

	it('passes requests without headers through untouched', async () => {
		const { calls, fetchFunction } = recorder();
		await withoutUserAgent(fetchFunction)('http://x/');
		expect(calls).toHaveLength(1);
		expect([...calls[0]!.headers.keys()]).toEqual([]);
	});
});
