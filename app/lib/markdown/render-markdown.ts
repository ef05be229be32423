/**
 * Markdown from scenarios (and, later, from models) is data: rendered with marked, then cleaned
 * with DOMPurify so no script, handler or foreign frame survives. Loaded lazily (browser only).
 */
export async function renderMarkdown(text: string): Promise<string> {
	const [{ marked }, { default: DOMPurify }] = await Promise.all([
		import('marked'),
		import('dompurify')
	]);
	const html = await marked.parse(text, { gfm: true, breaks: false });
	const clean = DOMPurify.sanitize(html, {
		USE_PROFILES: { html: true },
		FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe', 'object', 'embed'],
		FORBID_ATTR: ['style']
	});
	// A code block wider than its column scrolls sideways: keyboard users must be able to focus it
	// to scroll it (WCAG 2.1.1; axe's scrollable-region-focusable). Added after sanitizing, so the
	// attribute is ours, never the scenario's.
	// Every <pre>, with or without attributes of its own (raw HTML in a brief may give some).
	return clean.replace(/<pre(?=[\s>])/g, '<pre tabindex="0"');
}
