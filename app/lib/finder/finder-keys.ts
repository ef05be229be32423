/** The fields of a keydown event the shortcuts look at (so tests need no DOM). */
export interface KeyPress {
	key: string;
	ctrlKey: boolean;
	metaKey: boolean;
	shiftKey: boolean;
	altKey: boolean;
}

export type FinderCommand = 'quick-open' | 'search';

/**
 * Ctrl+P (⌘P on a Mac) opens Quick Open, Ctrl+Shift+F (⌘⇧F) searches across files. The page
 * listens in the capture phase, before Monaco and the terminal see the key, so both work
 * wherever the focus is (and the browser's print dialog does not open).
 */
export function finderCommand(press: KeyPress): FinderCommand | null {
	if (!(press.ctrlKey || press.metaKey) || press.altKey) return null;
	const key = press.key.toLowerCase();
	if (key === 'p' && !press.shiftKey) return 'quick-open';
	if (key === 'f' && press.shiftKey) return 'search';
	return null;
}

/** Moves a list selection with the arrow, Home/End and Page keys; null for other keys. */
export function movedSelection(key: string, selected: number, count: number): number | null {
	if (count === 0) return null;
	switch (key) {
		case 'ArrowDown':
			return (selected + 1) % count;
		case 'ArrowUp':
			return (selected - 1 + count) % count;
		case 'PageDown':
			return Math.min(count - 1, selected + 10);
		case 'PageUp':
			return Math.max(0, selected - 10);
		default:
			return null;
	}
}
