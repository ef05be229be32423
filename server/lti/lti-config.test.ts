import { describe, expect, it } from 'vitest';
import { findPlatform, ltiConfigFromEnvironment, parsePlatforms } from './lti-config.js';

const platform = (overrides: Record<string, unknown> = {}) => ({
	issuer: 'https://canvas.instructure.com',
	client_id: '10000000000042',
	deployment_ids: ['7:abc'],
	auth_login_url: 'https://sso.canvaslms.com/api/lti/authorize_redirect',
	auth_token_url: 'https://sso.canvaslms.com/login/oauth2/token',
	keyset_url: 'https://sso.canvaslms.com/api/lti/security/jwks',
	...overrides
});

describe('LTI platforms from configuration', () => {
	it('reads several platforms, from the JSON or a file path', () => {
		const text = JSON.stringify([platform(), platform({ client_id: 'other' })]);
		const config = ltiConfigFromEnvironment({
			THREADLINE_LTI_PLATFORMS: text,
			THREADLINE_LTI_TOOL_URL: 'https://threadline.example.edu/ignored/path'
		});
		expect(config?.toolUrl).toBe('https://threadline.example.edu');
		expect(config?.platforms).toHaveLength(2);
		const fromFile = ltiConfigFromEnvironment(
			{ THREADLINE_LTI_PLATFORMS: '/etc/lti.json', THREADLINE_LTI_TOOL_URL: 'https://t.example' },
			(path) => (path === '/etc/lti.json' ? text : '')
		);
		expect(fromFile?.platforms[1]?.clientId).toBe('other');
		// Canvas shares one issuer between keys: the client id picks the registration.
		expect(findPlatform(config!, 'https://canvas.instructure.com', 'other')?.clientId).toBe(
			'other'
		);
		expect(findPlatform(config!, 'https://canvas.instructure.com', null)).toBeNull();
	});

	it('is off when unset and refuses half a configuration or a bad platform', () => {
		expect(ltiConfigFromEnvironment({})).toBeNull();
		expect(() =>
			ltiConfigFromEnvironment({ THREADLINE_LTI_TOOL_URL: 'https://t.example' })
		).toThrow(/both/);
		const bad = [
			platform({ deployment_ids: [] }),
			platform({ keyset_url: 'http://lms.example/jwks' }),
			platform({ auth_login_url: 'not a url' }),
			platform({ issuer: '' })
		];
		for (const entry of bad) expect(() => parsePlatforms(JSON.stringify([entry]))).toThrow();
		expect(() => parsePlatforms(JSON.stringify([platform(), platform()]))).toThrow(/share/);
		expect(() => parsePlatforms('{not json')).toThrow(/JSON/);
		// http is for loopback only (a local platform in tests).
		expect(
			parsePlatforms(JSON.stringify([platform({ keyset_url: 'http://127.0.0.1:9/jwks' })]))
		).toHaveLength(1);
	});
});
