import { zipSync, type Zippable } from 'fflate';
import { describe, expect, it } from 'vitest';
import { buildScenarioIndex } from '../../../hooks/scenarios/scenario-index.js';
import { sampleBundle, sampleEntries } from '../../../hooks/scenarios/scenario-test-fixtures.js';
import type { Fetcher } from './fetch-bytes.js';
import { checkRemoteScenarioUrl } from './remote-scenario-url.js';
import { loadBuiltInScenario, loadRemoteScenario, loadScenarioIndex } from './scenario-source.js';

type Route = Response | (() => Response) | Error;

/** A fetcher over fixed routes that records what it was asked for and how. */
function fakeFetcher(routes: Record<string, Route>) {
	const requests: { url: string; init: RequestInit | undefined }[] = [];
	const fetcher: Fetcher = async (url, init) => {
		requests.push({ url, init });
		const route = routes[url];
		if (route === undefined) return new Response('not found', { status: 404 });
		if (route instanceof Error) throw route;
		return typeof route === 'function' ? route() : route;
	};
	return { fetcher, requests };
}

const json = (value: unknown) => new Response(JSON.stringify(value));

/** A Response over zip bytes (fflate's arrays are typed over ArrayBufferLike; BodyInit wants ArrayBuffer). */
function zipResponse(bytes: Uint8Array): Response {
	return new Response(new Uint8Array(bytes));
}

function zipOfSample(): Uint8Array {
	const zippable: Zippable = {};
	for (const [path, content] of sampleEntries()) zippable[`sample/${path}`] = content;
	return zipSync(zippable);
}

const indexOfSample = buildScenarioIndex([{ ...sampleBundle().manifest, default: true }]).index;

describe('loadScenarioIndex', () => {
	it('reads and checks public/scenarios/index.json', async () => {
		const { fetcher, requests } = fakeFetcher({ '/scenarios/index.json': json(indexOfSample) });
		expect(await loadScenarioIndex(fetcher)).toEqual({
			ok: true,
			scenarios: indexOfSample.scenarios
		});
		expect(requests[0]?.url).toBe('/scenarios/index.json');
		const based = fakeFetcher({ '/course/scenarios/index.json': json(indexOfSample) });
		expect((await loadScenarioIndex(based.fetcher, { baseUrl: '/course/scenarios' })).ok).toBe(
			true
		);
	});

	it('says how to fix a missing or malformed index', async () => {
		expect(await loadScenarioIndex(fakeFetcher({}).fetcher)).toEqual({
			ok: false,
			kind: 'not-found',
			error:
				'The scenario index (/scenarios/index.json) is missing: the app was built without its scenarios. Run npm run scenarios and rebuild.'
		});
		const malformed = fakeFetcher({ '/scenarios/index.json': json({ scenarios: 'all of them' }) });
		expect(await loadScenarioIndex(malformed.fetcher)).toMatchObject({
			ok: false,
			kind: 'invalid',
			error: expect.stringMatching(/not in the expected format/)
		});
		const html = fakeFetcher({ '/scenarios/index.json': new Response('<!doctype html>') });
		expect((await loadScenarioIndex(html.fetcher)).ok).toBe(false);
	});

	it('turns a network failure into a value', async () => {
		const offline = fakeFetcher({ '/scenarios/index.json': new TypeError('Failed to fetch') });
		expect(await loadScenarioIndex(offline.fetcher)).toMatchObject({
			ok: false,
			kind: 'network',
			error: expect.stringMatching(
				/^The scenario index could not be fetched \(Failed to fetch\)\. Check the connection/
			)
		});
	});
});

describe('loadBuiltInScenario', () => {
	it('loads /scenarios/<id>.json as a trusted scenario', async () => {
		const { fetcher } = fakeFetcher({ '/scenarios/sample.json': json(sampleBundle()) });
		expect(await loadBuiltInScenario('sample', fetcher)).toEqual({
			ok: true,
			bundle: sampleBundle(),
			trusted: true,
			source: 'built-in:sample'
		});
	});

	it('refuses ids that are not ids before fetching anything', async () => {
		const { fetcher, requests } = fakeFetcher({});
		for (const id of ['../index', 'Sample', 'a/b', '']) {
			expect(await loadBuiltInScenario(id, fetcher)).toMatchObject({
				ok: false,
				kind: 'bad-request'
			});
		}
		expect(requests).toEqual([]);
	});

	it('names a scenario that does not exist and a bundle that holds another one', async () => {
		expect(await loadBuiltInScenario('nope', fakeFetcher({}).fetcher)).toEqual({
			ok: false,
			kind: 'not-found',
			error: 'There is no built-in scenario "nope".'
		});
		const swapped = fakeFetcher({ '/scenarios/other.json': json(sampleBundle()) });
		expect(await loadBuiltInScenario('other', swapped.fetcher)).toMatchObject({
			ok: false,
			kind: 'invalid',
			error: expect.stringMatching(/holds the scenario "sample", not "other"/)
		});
	});
});

describe('loadRemoteScenario', () => {
	const url = 'https://courses.example.org/scenarios/sample.json';

	it('loads a JSON bundle over https, anonymously, as untrusted', async () => {
		const { fetcher, requests } = fakeFetcher({ [url]: json(sampleBundle()) });
		expect(await loadRemoteScenario(url, fetcher)).toEqual({
			ok: true,
			bundle: sampleBundle(),
			trusted: false,
			source: url
		});
		expect(requests[0]?.init).toMatchObject({ credentials: 'omit', mode: 'cors' });
	});

	it('loads a zip of a scenario folder, recognised by its bytes, not its name', async () => {
		const address = 'https://example.org/download?id=7';
		const { fetcher } = fakeFetcher({ [address]: zipResponse(zipOfSample()) });
		expect(await loadRemoteScenario(address, fetcher)).toEqual({
			ok: true,
			bundle: sampleBundle(),
			trusted: false,
			source: address
		});
	});

	it('accepts plain http only from this machine', async () => {
		const local = 'http://localhost:8080/sample.json';
		expect(
			(await loadRemoteScenario(local, fakeFetcher({ [local]: json(sampleBundle()) }).fetcher)).ok
		).toBe(true);
		const { fetcher, requests } = fakeFetcher({});
		for (const [address, message] of [
			['http://example.org/s.json', /https only .*use https:\/\/example\.org\/s\.json/],
			['ftp://example.org/s.json', /not ftp: URLs/],
			['javascript:alert(1)', /not javascript: URLs/],
			['data:application/json,{}', /not data: URLs/],
			['https://user:secret@example.org/s.json', /user name or password/],
			['sample.json', /is not a URL/]
		] as const) {
			const result = await loadRemoteScenario(address, fetcher);
			expect(result, address).toMatchObject({ ok: false, kind: 'bad-request' });
			expect(!result.ok && result.error, address).toMatch(message);
		}
		expect(requests).toEqual([]);
	});

	it('refuses a redirect to a plain-http address', async () => {
		const redirected = new Response(JSON.stringify(sampleBundle()));
		Object.defineProperty(redirected, 'url', { value: 'http://evil.example/s.json' });
		const result = await loadRemoteScenario(url, fakeFetcher({ [url]: redirected }).fetcher);
		expect(result).toMatchObject({ ok: false, kind: 'bad-request' });
		expect(!result.ok && result.error).toMatch(/redirected to http:\/\/evil\.example\/s\.json/);
	});

	it('explains CORS and CORP when the fetch itself fails', async () => {
		const result = await loadRemoteScenario(
			url,
			fakeFetcher({ [url]: new TypeError('Failed to fetch') }).fetcher
		);
		expect(result).toMatchObject({ ok: false, kind: 'network' });
		const error = !result.ok ? result.error : '';
		expect(error).toContain(`The scenario at ${url} could not be fetched (Failed to fetch).`);
		expect(error).toContain('Access-Control-Allow-Origin');
		expect(error).toContain('Cross-Origin-Resource-Policy: cross-origin');
		expect(error).toContain('COEP require-corp');
	});

	it('reports 404 and other HTTP errors plainly', async () => {
		expect(await loadRemoteScenario(url, fakeFetcher({}).fetcher)).toEqual({
			ok: false,
			kind: 'not-found',
			error: `The scenario at ${url} was not found (404 at ${url}).`
		});
		const broken = fakeFetcher({
			[url]: new Response('oops', { status: 503, statusText: 'Service Unavailable' })
		});
		expect(await loadRemoteScenario(url, broken.fetcher)).toMatchObject({
			ok: false,
			kind: 'http',
			error: expect.stringContaining('the server answered 503 Service Unavailable')
		});
	});

	it('stops reading a response that is too large, by header or by stream', async () => {
		const declared = new Response('{}', {
			headers: { 'content-length': String(200 * 1024 * 1024) }
		});
		expect(await loadRemoteScenario(url, fakeFetcher({ [url]: declared }).fetcher)).toMatchObject({
			ok: false,
			kind: 'too-large'
		});
		let pulled = 0;
		const endless = new ReadableStream<Uint8Array>({
			pull(controller) {
				pulled++;
				controller.enqueue(new Uint8Array(1024 * 1024));
			}
		});
		const streamed = await loadRemoteScenario(
			url,
			fakeFetcher({ [url]: new Response(endless) }).fetcher
		);
		expect(streamed).toMatchObject({
			ok: false,
			kind: 'too-large',
			error: expect.stringMatching(/too large: more than \d+ MB/)
		});
		expect(pulled).toBeLessThan(60);
	});

	it('says when the file is not a scenario at all', async () => {
		for (const body of [
			'<!doctype html><title>Login</title>',
			'{"name": "some package"}',
			'[1, 2, 3]'
		]) {
			const result = await loadRemoteScenario(
				url,
				fakeFetcher({ [url]: new Response(body) }).fetcher
			);
			expect(result, body).toMatchObject({ ok: false, kind: 'not-a-scenario' });
			expect(!result.ok && result.error).toMatch(
				new RegExp(`^The scenario at ${url.replaceAll('.', '\\.')} is not a scenario`)
			);
		}
		const notScenarioZip = zipSync({ 'README.md': new Uint8Array([65]) });
		expect(
			await loadRemoteScenario(url, fakeFetcher({ [url]: zipResponse(notScenarioZip) }).fetcher)
		).toMatchObject({
			ok: false,
			kind: 'not-a-scenario',
			error: expect.stringMatching(/no scenario\.yaml found/)
		});
	});

	it('lists what is wrong with an invalid bundle, including unsafe paths', async () => {
		const bundle = sampleBundle();
		const hostile = {
			...bundle,
			files: { ...bundle.files, '../../etc/profile': { encoding: 'utf8', content: 'x' } }
		};
		const result = await loadRemoteScenario(url, fakeFetcher({ [url]: json(hostile) }).fetcher);
		expect(result).toMatchObject({ ok: false, kind: 'invalid' });
		expect(!result.ok && result.error.split('\n')).toEqual([
			`The scenario at ${url} is not valid:`,
			expect.stringMatching(/^- files: "\.\.\/\.\.\/etc\/profile" climbs above the workspace root/)
		]);
	});

	it('calls a bundle over the size limits too large, not invalid', async () => {
		const files: Record<string, unknown> = { ...sampleBundle().files };
		for (let index = 0; index < 2_001; index++)
			files[`f${index}`] = { encoding: 'utf8', content: '' };
		const result = await loadRemoteScenario(
			url,
			fakeFetcher({ [url]: json({ ...sampleBundle(), files }) }).fetcher
		);
		expect(result).toMatchObject({ ok: false, kind: 'too-large' });
		expect(!result.ok && result.error).toMatch(
			/is too large \(scenarios may hold 2000 files and 20 MB\)/
		);
	});
});

describe('checkRemoteScenarioUrl', () => {
	it('accepts https anywhere and http on loopback names', () => {
		for (const address of [
			'https://example.org/a.zip',
			'http://127.0.0.1:5173/a.json',
			'http://[::1]/a.json',
			'http://app.localhost/a.json',
			'  https://example.org/a.json  '
		]) {
			expect(checkRemoteScenarioUrl(address).ok, address).toBe(true);
		}
		expect(checkRemoteScenarioUrl('http://localhost.example.org/a.json').ok).toBe(false);
		expect(checkRemoteScenarioUrl('file:///etc/passwd').ok).toBe(false);
	});
});
