import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import svelteConfig, { contentSecurityPolicy } from '../svelte.config.js';

/** `'self'`-style keywords are quoted in a policy; schemes and hosts are not. */
const keywords = new Set(['self', 'none', 'unsafe-inline', 'unsafe-eval', 'wasm-unsafe-eval']);
const directives = contentSecurityPolicy as Record<string, string[]>;

function policyText(entries: [string, string[]][]): string {
	return entries
		.map(([name, sources]) =>
			[name, ...sources.map((source) => (keywords.has(source) ? `'${source}'` : source))].join(' ')
		)
		.join('; ');
}

describe('the pages’ Content-Security-Policy (svelte.config.js)', () => {
	it('is what SvelteKit sends with every page', () => {
		expect(svelteConfig.kit?.csp).toEqual({ mode: 'auto', directives: contentSecurityPolicy });
	});

	it('loads images, media, fonts and styles from this origin (or data: and blob:) only', () => {
		expect(directives['default-src']).toEqual(['self']);
		for (const name of ['img-src', 'media-src'])
			expect(directives[name], name).toEqual(['self', 'data:', 'blob:']);
		expect(directives['font-src']).toEqual(['self', 'data:']);
		// Inline styles are needed (Monaco, xterm); their url()s are still bound by img-src/font-src.
		expect(directives['style-src']).toEqual(['self', 'unsafe-inline']);
		expect(directives['object-src']).toEqual(['none']);
		expect(directives['base-uri']).toEqual(['self']);
		expect(directives['form-action']).toEqual(['self']);
		expect(directives['frame-ancestors']).toEqual(['self']);
	});

	it('runs only our own scripts and workers, with WebAssembly but never eval', () => {
		expect(directives['script-src']).toEqual(['self', 'wasm-unsafe-eval']);
		expect(directives['worker-src']).toEqual(['self', 'blob:']);
		for (const [name, sources] of Object.entries(directives)) {
			expect(sources, name).not.toContain('unsafe-eval');
			if (name !== 'style-src') expect(sources, name).not.toContain('unsafe-inline');
			expect(sources, name).not.toContain('*');
		}
	});

	it('lets the agent reach any provider the person configures, local ones included', () => {
		// https: covers OpenAI, Anthropic, Google, OpenRouter and remote scenarios; http: covers
		// Ollama or LM Studio on localhost and on the local network; ws:/wss: the dev server's HMR.
		expect(directives['connect-src']).toEqual(
			expect.arrayContaining(['self', 'https:', 'http:', 'wss:', 'ws:'])
		);
	});

	it('frames only this origin and WebContainer’s hosts', () => {
		for (const source of directives['frame-src'] ?? [])
			expect(source).toMatch(
				/^(self|blob:|https:\/\/(\*\.)?(stackblitz\.com|staticblitz\.com|webcontainer-api\.io|webcontainer\.io))$/
			);
	});

	it('is repeated, without its script rules, in public/_headers for static hosts', async () => {
		const headers = await readFile(new URL('../public/_headers', import.meta.url), 'utf8');
		const line = headers
			.split('\n')
			.map((text) => text.trim())
			.find((text) => text.startsWith('Content-Security-Policy:'));
		const withoutScriptRules = Object.entries(directives).filter(
			([name]) => name !== 'default-src' && name !== 'script-src'
		);
		expect(line).toBe(`Content-Security-Policy: ${policyText(withoutScriptRules)}`);
	});
});
