import { afterEach, describe, expect, it } from 'vitest';
import { renderMarkdown } from './render-markdown.js';

// Runs in Chromium: DOMPurify needs a real DOM, and only a real page shows what gets requested.

const evil = 'https://evil.example/t.gif';

/** Every way a brief has tried (or could try) to make the page fetch something by itself. */
function hostileBrief(origin: string): string {
	return `# Brief

![x](${origin}/md.gif)

<img src="${origin}/img.gif" alt="pixel">
<img src="//${new URL(origin).host}/protocol-relative.gif">
<img src="/same-origin.gif" srcset="${origin}/srcset.gif 2x">
<picture><source srcset="${origin}/source.gif"><img src="/same-origin.gif"></picture>
<video src="${origin}/video.mp4" poster="${origin}/poster.gif"></video>
<audio src="${origin}/audio.mp3"></audio>
<table background="${origin}/table.gif"><tr><td background="${origin}/td.gif">cell</td></tr></table>
<link rel="stylesheet" href="${origin}/link.css">
<link rel="prefetch" href="${origin}/prefetch">
<style>@import url("${origin}/import.css"); p { background: url("${origin}/style.gif") }</style>
<p style="background-image: url('${origin}/inline-style.gif')">styled</p>
<svg><image href="${origin}/svg-image.gif"></image><use href="${origin}/use.svg#a"></use></svg>
<input type="image" src="${origin}/input.gif">
<object data="${origin}/object.gif"></object>
<embed src="${origin}/embed.gif">
<iframe src="${origin}/frame.html"></iframe>
<a href="${origin}/page" ping="${origin}/ping">a link</a>
<body background="${origin}/body.gif">
<div src="${origin}/div-src.gif" href="${origin}/div-href">div</div>
`;
}

/** Attributes through which an element makes the browser fetch something without a click. */
const loadingAttributes = new Set([
	'src',
	'srcset',
	'poster',
	'background',
	'data',
	'lowsrc',
	'dynsrc',
	'imagesrcset',
	'ping',
	'action',
	'formaction',
	'codebase',
	'archive',
	'manifest',
	'xlink:href'
]);

/** Every URL the rendered HTML could load by itself (independent of the code under test). */
function loadingUrls(html: string): string[] {
	const parsed = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
	const urls: string[] = [];
	const cssUrls = (css: string) =>
		[...css.matchAll(/url\(\s*['"]?([^'")]+)|@import\s+['"]([^'"]+)/g)].map(
			(match) => match[1] ?? match[2] ?? ''
		);
	for (const element of parsed.body.querySelectorAll('*')) {
		for (const attribute of element.attributes) {
			const name = attribute.name.toLowerCase();
			if (name === 'srcset' || name === 'imagesrcset')
				urls.push(...attribute.value.split(',').map((part) => part.trim().split(/\s+/)[0] ?? ''));
			else if (loadingAttributes.has(name)) urls.push(attribute.value);
			else if (name === 'href' && element.localName !== 'a') urls.push(attribute.value);
			else if (name === 'style') urls.push(...cssUrls(attribute.value));
		}
		if (element.localName === 'style') urls.push(...cssUrls(element.textContent ?? ''));
	}
	return urls;
}

function crossOrigin(url: string): boolean {
	const resolved = new URL(url, document.baseURI);
	if (resolved.protocol === 'data:') return false;
	return resolved.origin !== location.origin;
}

const inserted: HTMLElement[] = [];
afterEach(() => {
	for (const element of inserted.splice(0)) element.remove();
});

describe('renderMarkdown', () => {
	it('leaves no cross-origin URL in any loading attribute', async () => {
		const html = await renderMarkdown(
			`${hostileBrief('https://evil.example')}\n\n<img src="${evil}"> ![x](${evil})`
		);
		const urls = loadingUrls(html);
		expect(urls.filter(crossOrigin)).toEqual([]);
		// evil.example is left only where a click is needed: a link's href.
		const parsed = new DOMParser().parseFromString(html, 'text/html');
		for (const element of parsed.body.querySelectorAll('*')) {
			for (const attribute of element.attributes) {
				if (element.localName === 'a' && attribute.name === 'href') continue;
				if (element.localName === 'a' && attribute.name === 'title') continue;
				expect(attribute.value, `${element.localName}[${attribute.name}]`).not.toContain('evil');
			}
		}
		// Same-origin images still show.
		expect(urls).toContain('/same-origin.gif');
	});

	it('replaces a cross-origin image with a placeholder that names it, not loads it', async () => {
		const html = await renderMarkdown(`![the diagram](${evil}) and <img src="${evil}">`);
		const parsed = new DOMParser().parseFromString(html, 'text/html');
		expect(parsed.querySelectorAll('img')).toHaveLength(0);
		const placeholders = [...parsed.querySelectorAll('.image-not-loaded')];
		expect(placeholders.map((element) => element.textContent)).toEqual([
			'[Image from evil.example not loaded: the diagram]',
			'[Image from evil.example not loaded]'
		]);
		// The person may still open it: a link, followed only when clicked.
		expect(placeholders[0]?.getAttribute('href')).toBe(evil);
		expect(placeholders[0]?.getAttribute('rel')).toBe('noopener noreferrer');
	});

	it('keeps same-origin and data: images, and focusable code blocks', async () => {
		const pixel = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
		const html = await renderMarkdown(
			`![local](/scenarios/diagram.png) ![inline](${pixel})\n\n\`\`\`\ncode\n\`\`\``
		);
		const parsed = new DOMParser().parseFromString(html, 'text/html');
		expect([...parsed.querySelectorAll('img')].map((image) => image.getAttribute('src'))).toEqual([
			'/scenarios/diagram.png',
			pixel
		]);
		expect(parsed.querySelector('pre')?.getAttribute('tabindex')).toBe('0');
	});

	it('makes no request to another origin once shown in the page', async () => {
		// A real cross-origin server: the test page's own, under another host name.
		const other = `${location.protocol}//${location.hostname === '127.0.0.1' ? 'localhost' : '127.0.0.1'}:${location.port}`;
		const marker = `tracking-${Date.now()}`;
		const html = await renderMarkdown(hostileBrief(`${other}/${marker}`));
		const host = document.createElement('div');
		host.innerHTML = html;
		document.body.append(host);
		inserted.push(host);
		await new Promise((resolve) => setTimeout(resolve, 500));
		const requested = performance
			.getEntriesByType('resource')
			.map((entry) => entry.name)
			.filter((name) => name.includes(marker));
		expect(requested).toEqual([]);
	});

	it('still strips scripts, handlers and javascript: links', async () => {
		const html = await renderMarkdown(
			`<img src="x" onerror="alert(1)"> <script>alert(2)</script> [click](javascript:alert(3))`
		);
		expect(html).not.toMatch(/onerror|<script|javascript:/i);
	});
});
