import { describe, expect, it } from 'vitest';
import { ChatRequestGuard, passphraseHeader } from './chat-request-guard.js';

const post = (body: string, headers: Record<string, string> = {}) =>
	new Request('http://localhost/api/chat', { method: 'POST', body, headers });

describe('ChatRequestGuard', () => {
	it('needs the class passphrase when one is set', async () => {
		const guard = new ChatRequestGuard();
		const environment = { THREADLINE_CHAT_PASSPHRASE: 'blue whale' };
		const missing = await guard.admit(post('{}'), 'a', environment);
		expect(!missing.ok && missing.response.status).toBe(401);
		const wrong = await guard.admit(
			post('{}', { [passphraseHeader]: 'blue whal' }),
			'a',
			environment
		);
		expect(!wrong.ok && wrong.response.status).toBe(401);
		const right = await guard.admit(
			post('{}', { [passphraseHeader]: 'blue whale' }),
			'a',
			environment
		);
		expect(right.ok).toBe(true);
		if (right.ok) expect(await right.request.text()).toBe('{}');
	});

	it('refuses bodies over the cap, also without a content-length', async () => {
		const guard = new ChatRequestGuard();
		const environment = { THREADLINE_CHAT_MAX_BYTES: '100' };
		const big = await guard.admit(post('x'.repeat(101)), 'a', environment);
		expect(!big.ok && big.response.status).toBe(413);
		const stream = new ReadableStream<Uint8Array>({
			start(controller) {
				for (let index = 0; index < 5; index++) controller.enqueue(new Uint8Array(50));
				controller.close();
			}
		});
		const streamed = await guard.admit(
			new Request('http://localhost/api/chat', {
				method: 'POST',
				body: stream,
				duplex: 'half'
			} as RequestInit),
			'b',
			environment
		);
		expect(!streamed.ok && streamed.response.status).toBe(413);
		expect((await guard.admit(post('x'.repeat(100)), 'c', environment)).ok).toBe(true);
	});

	it('limits each client separately and lets them back after the window', async () => {
		let now = 0;
		const guard = new ChatRequestGuard(() => now);
		const environment = { THREADLINE_CHAT_RATE_PER_MINUTE: '2' };
		expect((await guard.admit(post('{}'), 'a', environment)).ok).toBe(true);
		expect((await guard.admit(post('{}'), 'a', environment)).ok).toBe(true);
		const third = await guard.admit(post('{}'), 'a', environment);
		expect(!third.ok && third.response.status).toBe(429);
		expect(!third.ok && third.response.headers.get('retry-after')).toBe('60');
		expect((await guard.admit(post('{}'), 'b', environment)).ok).toBe(true);
		now = 60_001;
		expect((await guard.admit(post('{}'), 'a', environment)).ok).toBe(true);
	});
});
