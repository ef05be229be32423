/**
 * `.intentignore`: one intent id per line; `#` starts a comment (a whole line or the rest of one).
 * Listed intents are protected: every destructive action under them asks the human first.
 */
export function parseIntentIgnore(text: string): Set<string> {
	const ids = new Set<string>();
	// A BOM from a Windows editor would otherwise become part of the first id.
	const content = text.startsWith('\ufeff') ? text.slice(1) : text;
	for (const line of content.split(/\r\n|\r|\n/)) {
		const hash = line.indexOf('#');
		const id = (hash === -1 ? line : line.slice(0, hash)).trim();
		if (id !== '') ids.add(id);
	}
	return ids;
}

/**
 * `.intentignore`'s text with `intentId` protected or not, everything else (comments, other ids,
 * line breaks) kept: protecting adds one line; unprotecting removes the id from every line that
 * lists it (a comment on such a line stays). The same text back when nothing changes.
 */
export function withIntentProtection(text: string, intentId: string, protect: boolean): string {
	const listed = parseIntentIgnore(text).has(intentId);
	if (protect === listed) return text;
	if (protect) {
		const separator = text === '' || /[\r\n]$/.test(text) ? '' : '\n';
		return `${text}${separator}${intentId}\n`;
	}
	const bom = text.startsWith('\ufeff') ? '\ufeff' : '';
	const lines = text.slice(bom.length).split(/(\r\n|\r|\n)/);
	const kept: string[] = [];
	for (let index = 0; index < lines.length; index += 2) {
		const line = lines[index] as string;
		const ending = lines[index + 1] ?? '';
		const hash = line.indexOf('#');
		const id = (hash === -1 ? line : line.slice(0, hash)).trim();
		if (id !== intentId) kept.push(line + ending);
		else if (hash !== -1) kept.push(line.slice(hash) + ending);
	}
	return bom + kept.join('');
}
