import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ltiFormContentType, withLtiFormPosts } from '../../server.js';

const through = (method: string, url: string, type: string) => {
	let seen = '';
	const handler = withLtiFormPosts((request) => {
		seen = String(request.headers['content-type']);
	});
	handler(
		{ method, url, headers: { 'content-type': type } } as unknown as IncomingMessage,
		{} as ServerResponse,
		() => undefined
	);
	return seen;
};

describe("server.js lets an LMS's form posts reach the LTI routes (SvelteKit's CSRF check)", () => {
	it('renames the form content type of POSTs to the LTI form routes only', () => {
		const form = 'application/x-www-form-urlencoded';
		expect(through('POST', '/api/lti/launch', form)).toBe(ltiFormContentType);
		expect(through('POST', '/api/lti/login?x=1', form)).toBe(ltiFormContentType);
		expect(through('POST', '/api/lti/deep-link', form)).toBe(ltiFormContentType);
		expect(through('POST', '/api/lti/scores', form)).toBe(form);
		expect(through('POST', '/api/class/join', form)).toBe(form);
		expect(through('POST', '/api/lti/launch/extra', form)).toBe(form);
		expect(through('GET', '/api/lti/launch', form)).toBe(form);
		expect(through('POST', '/api/lti/launch', 'application/json')).toBe('application/json');
	});
});
