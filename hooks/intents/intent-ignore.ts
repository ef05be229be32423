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
