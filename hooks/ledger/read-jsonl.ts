/** One line of a jsonl file: its 1-based number, its text, and its value or why it has none. */
export type JsonlEntry =
	| { line: number; text: string; value: unknown; error?: undefined }
	| { line: number; text: string; value?: undefined; error: string };

/**
 * Splits jsonl text into entries. Empty lines are skipped (an editor may add one at the end);
 * anything else must parse. Only `\r\n` counts as a line break besides `\n`, so a stray `\r` at the
 * end of a line stays part of it (and fails verify's canonical-form check).
 */
export function readJsonl(text: string): JsonlEntry[] {
	const entries: JsonlEntry[] = [];
	const lines = text.split(/\r?\n/);
	for (let position = 0; position < lines.length; position++) {
		const lineText = lines[position] as string;
		if (lineText === '') continue;
		const line = position + 1;
		try {
			entries.push({ line, text: lineText, value: JSON.parse(lineText) as unknown });
		} catch (error) {
			entries.push({ line, text: lineText, error: `not valid JSON (${(error as Error).message})` });
		}
	}
	return entries;
}
