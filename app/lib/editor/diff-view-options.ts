import type { DiffContent } from './diff-editor-session.js';

/**
 * How a diff is laid out so the change being reviewed is what the reviewer sees first:
 * unchanged stretches folded away (a few lines of context kept, each fold can be opened), and a
 * new or deleted file as one inline column, not beside an empty hatched half.
 */
export const hiddenUnchangedRegions = {
	enabled: true,
	/** Lines kept visible around each change. */
	contextLineCount: 3,
	/** Shorter unchanged stretches are shown rather than folded. */
	minimumLineCount: 5,
	/** Lines a click on a fold's "show more" reveals. */
	revealLineCount: 20
} as const;

export function diffLayout(content: Pick<DiffContent, 'original' | 'modified'>): {
	renderSideBySide: boolean;
} {
	return { renderSideBySide: content.original !== null && content.modified !== null };
}
