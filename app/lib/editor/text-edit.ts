/**
 * The smallest single replacement that turns one text into another. Applying a file that changed
 * on disk as this edit (instead of replacing everything) keeps the cursor, the scroll position and
 * the folding of the untouched parts, and makes one tidy undo step.
 */

export interface TextReplacement {
	/** Offset in the old text where the replaced part starts. */
	start: number;
	/** Offset in the old text where the replaced part ends (exclusive). */
	end: number;
	/** What goes in its place. */
	text: string;
}

export function minimalReplacement(before: string, after: string): TextReplacement | null {
	if (before === after) return null;

	const shorter = Math.min(before.length, after.length);
	let start = 0;
	while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;

	let endBefore = before.length;
	let endAfter = after.length;
	while (
		endBefore > start &&
		endAfter > start &&
		before.charCodeAt(endBefore - 1) === after.charCodeAt(endAfter - 1)
	) {
		endBefore--;
		endAfter--;
	}

	// Never cut a surrogate pair or a CRLF in half: the editor would see a lone half.
	while (start > 0 && splitsPair(before, start)) start--;
	while (endBefore < before.length && splitsPair(before, endBefore)) {
		endBefore++;
		endAfter++;
	}

	return { start, end: endBefore, text: after.slice(start, endAfter) };
}

function splitsPair(text: string, offset: number): boolean {
	const previous = text.charCodeAt(offset - 1);
	const next = text.charCodeAt(offset);
	const surrogatePair =
		previous >= 0xd800 && previous <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
	const lineBreak = previous === 0x0d && next === 0x0a;
	return surrogatePair || lineBreak;
}
