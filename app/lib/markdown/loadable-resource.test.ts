import { describe, expect, it } from 'vitest';
import { hostOf, isLoadableResource } from './loadable-resource.js';

const page = 'https://threadline.example/grade/?scenario=jwt-auth';

describe('isLoadableResource', () => {
	it('allows this origin and data the page holds', () => {
		for (const url of [
			'/scenarios/jwt-auth/diagram.png',
			'diagram.png',
			'../x.png',
			'https://threadline.example/a.png',
			'HTTPS://THREADLINE.EXAMPLE/a.png',
			'  https://threadline.example/a.png  ',
			'data:image/png;base64,iVBORw0KGgo=',
			'blob:https://threadline.example/1f0c-4a',
			'?q=1',
			// Same scheme, no slashes: a relative path here, as the browser reads it.
			'https:evil.example/t.gif'
		]) {
			expect(isLoadableResource(url, page), url).toBe(true);
		}
	});

	it('refuses every other origin, however it is spelled', () => {
		for (const url of [
			'https://evil.example/t.gif',
			'http://threadline.example/a.png',
			'https://threadline.example:8443/a.png',
			'https://threadline.example.evil.example/a.png',
			'//evil.example/t.gif',
			'\\\\evil.example/t.gif',
			'/\\evil.example/t.gif',
			'\thttps://evil.example/t.gif',
			'https://threadline.example@evil.example/t.gif',
			'blob:https://evil.example/1f0c-4a',
			'javascript:alert(1)',
			'ftp://threadline.example/a.png',
			'file:///etc/passwd',
			'http://[::1]/t.gif'
		]) {
			expect(isLoadableResource(url, page), url).toBe(false);
		}
	});

	it('refuses everything when there is no page to compare with', () => {
		expect(isLoadableResource('/a.png', undefined)).toBe(false);
		expect(isLoadableResource('/a.png', 'not a url')).toBe(false);
	});
});

describe('hostOf', () => {
	it('names the host an image would have come from', () => {
		expect(hostOf('//evil.example/t.gif', page)).toBe('evil.example');
		expect(hostOf('data:image/png;base64,AA', page)).toBeNull();
		expect(hostOf('http://[', page)).toBeNull();
	});
});
