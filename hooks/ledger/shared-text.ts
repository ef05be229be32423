/**
 * Text from an agent or a command (a lesson, a failed command, a category, an intent id) that goes
 * into a shared markdown file (`AGENT.md`, `intent_map.md`) must stay one plain list item: every
 * line break (`\n`, a lone `\r`, U+2028/2029, form feeds) and control character becomes a space,
 * so it cannot start a heading, a fake section or a fake lesson; `<` and `>` are escaped so it
 * cannot open an HTML comment that hides what follows; and it is capped, saying "(truncated)".
 */
// eslint-disable-next-line no-control-regex
const breaksAndControls = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u0085]+/g;

export const truncatedMarker = ' (truncated)';

export function sanitizeSharedText(text: string, maximumLength: number): string {
	const flat = String(text)
		.replace(breaksAndControls, ' ')
		.replace(/\s+/g, ' ')
		.trim()
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;');
	if (flat.length <= maximumLength) return flat;
	// Cut on a code point boundary: a lone surrogate would make the file invalid UTF-8.
	const cut = flat.slice(0, maximumLength).replace(/[\ud800-\udbff]$/, '');
	return cut + truncatedMarker;
}
