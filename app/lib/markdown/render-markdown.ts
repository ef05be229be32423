import { hostOf, isLoadableResource } from './loadable-resource.js';

/**
 * Markdown from scenarios (briefs, steps, rubrics) and from models is data: rendered with marked,
 * then cleaned with DOMPurify so no script, handler or foreign frame survives, and so nothing in
 * it loads from another origin. Loaded lazily (browser only).
 *
 * Allow-lists, not deny-lists: what markdown produces and the plain HTML a brief reasonably
 * holds. No element here loads anything but `<img>` (no media, `<picture>`/`<source>`, `<link>`,
 * `<style>`, SVG or forms), and no attribute carries a URL but `<img src>` (checked: same origin,
 * `data:` or `blob:` only) and `<a href>` (followed only when the person clicks it). `srcset`,
 * `background`, `poster`, `ping`, `style` and the rest never get through. The page's
 * Content-Security-Policy (`img-src 'self' data: blob:`, svelte.config.js) refuses the same loads
 * again should anything slip past.
 */
const allowedTags = [
	'a',
	'abbr',
	'b',
	'bdi',
	'bdo',
	'blockquote',
	'br',
	'caption',
	'cite',
	'code',
	'col',
	'colgroup',
	'dd',
	'del',
	'details',
	'dfn',
	'div',
	'dl',
	'dt',
	'em',
	'figcaption',
	'figure',
	'h1',
	'h2',
	'h3',
	'h4',
	'h5',
	'h6',
	'hr',
	'i',
	'img',
	'ins',
	'kbd',
	'li',
	'mark',
	'ol',
	'p',
	'pre',
	'q',
	'rp',
	'rt',
	'ruby',
	's',
	'samp',
	'small',
	'span',
	'strong',
	'sub',
	'summary',
	'sup',
	'table',
	'tbody',
	'td',
	'tfoot',
	'th',
	'thead',
	'time',
	'tr',
	'u',
	'ul',
	'var',
	'wbr'
];

const allowedAttributes = [
	'href',
	'src',
	'alt',
	'title',
	'class',
	'align',
	'colspan',
	'rowspan',
	'scope',
	'start',
	'reversed',
	'datetime',
	'lang',
	'dir',
	'open',
	'width',
	'height'
];

export interface RenderMarkdownOptions {
	/** What relative URLs resolve against and whose origin images may load from: the page's. */
	baseUrl?: string;
}

export async function renderMarkdown(
	text: string,
	options: RenderMarkdownOptions = {}
): Promise<string> {
	const [{ marked }, { default: DOMPurify }] = await Promise.all([
		import('marked'),
		import('dompurify')
	]);
	const html = await marked.parse(text, { gfm: true, breaks: false });
	// A fragment of DOMPurify's own inert document: nothing in it loads while we finish it.
	const fragment = DOMPurify.sanitize(html, {
		ALLOWED_TAGS: allowedTags,
		ALLOWED_ATTR: allowedAttributes,
		ALLOW_DATA_ATTR: false,
		RETURN_DOM_FRAGMENT: true
	});
	keepResourcesSameOrigin(fragment, options.baseUrl ?? globalThis.document?.baseURI);
	// A code block wider than its column scrolls sideways: keyboard users must be able to focus it
	// to scroll it (WCAG 2.1.1; axe's scrollable-region-focusable). Added after sanitizing, so the
	// attribute is ours, never the scenario's.
	for (const block of fragment.querySelectorAll('pre')) block.setAttribute('tabindex', '0');
	const container = (fragment.ownerDocument ?? document).createElement('div');
	container.append(fragment);
	return container.innerHTML;
}

/**
 * `src` stays only on images, `href` only on links; an image from another origin (or one whose
 * address cannot be read) becomes a placeholder that names it, a link the person may follow.
 */
function keepResourcesSameOrigin(fragment: DocumentFragment, baseUrl: string | undefined): void {
	for (const element of fragment.querySelectorAll('*')) {
		if (element.localName !== 'img') element.removeAttribute('src');
		if (element.localName !== 'a') element.removeAttribute('href');
	}
	for (const image of fragment.querySelectorAll('img')) {
		const source = image.getAttribute('src');
		if (source !== null && isLoadableResource(source, baseUrl)) continue;
		image.replaceWith(imagePlaceholder(image, source, baseUrl));
	}
}

function imagePlaceholder(image: Element, source: string | null, baseUrl: string | undefined) {
	const document = image.ownerDocument;
	const alt = image.getAttribute('alt')?.trim() ?? '';
	const host = source === null ? null : hostOf(source, baseUrl);
	const label = `Image ${host ? `from ${host} ` : ''}not loaded${alt ? `: ${alt}` : ''}`;
	const linkable =
		source !== null && host !== null && /^https?:$/.test(protocolOf(source, baseUrl));
	const placeholder = document.createElement(linkable ? 'a' : 'span');
	placeholder.className = 'image-not-loaded';
	placeholder.textContent = `[${label}]`;
	if (linkable && source !== null) {
		placeholder.setAttribute('href', new URL(source, baseUrl).href);
		placeholder.setAttribute('rel', 'noopener noreferrer');
		placeholder.setAttribute('target', '_blank');
		placeholder.setAttribute(
			'title',
			`Images from other sites are not loaded here: loading one would tell ${host} who read this and when. Open it yourself if you trust it.`
		);
	}
	return placeholder;
}

function protocolOf(url: string, baseUrl: string | undefined): string {
	try {
		return new URL(url, baseUrl).protocol;
	} catch {
		return '';
	}
}
