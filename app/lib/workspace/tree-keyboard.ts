import type { TreeRow } from './file-tree-model.js';

/** What a key does in the file tree (the WAI-ARIA tree pattern), decided without the DOM. */
export type TreeKeyAction =
	| { kind: 'focus'; path: string }
	| { kind: 'expand'; path: string; open: boolean }
	| { kind: 'activate' }
	| { kind: 'rename' }
	| { kind: 'delete' };

export function treeKeyAction(
	rows: readonly TreeRow[],
	focused: TreeRow,
	key: string
): TreeKeyAction | null {
	const index = rows.indexOf(focused);
	const focusAt = (position: number): TreeKeyAction | null => {
		const row = rows[Math.max(0, Math.min(rows.length - 1, position))];
		return row ? { kind: 'focus', path: row.path } : null;
	};
	switch (key) {
		case 'ArrowDown':
			return focusAt(index + 1);
		case 'ArrowUp':
			return focusAt(index - 1);
		case 'Home':
			return focusAt(0);
		case 'End':
			return focusAt(rows.length - 1);
		case 'ArrowRight':
			if (focused.kind !== 'directory') return null;
			return focused.expanded
				? focusAt(index + 1)
				: { kind: 'expand', path: focused.path, open: true };
		case 'ArrowLeft':
			if (focused.kind === 'directory' && focused.expanded)
				return { kind: 'expand', path: focused.path, open: false };
			return focused.path.includes('/')
				? { kind: 'focus', path: focused.path.slice(0, focused.path.lastIndexOf('/')) }
				: null;
		case 'Enter':
		case ' ':
			return { kind: 'activate' };
		case 'F2':
			return { kind: 'rename' };
		case 'Delete':
			return { kind: 'delete' };
		default:
			return null;
	}
}
