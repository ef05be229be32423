import { describe, expect, it } from 'vitest';
import { parseViewState, restorableViewState, viewStateKey } from './workspace-view-state.js';

describe('workspace view state', () => {
	it('round-trips tabs, the active tab and open folders', () => {
		const state = { tabs: ['src/a.ts', 'README.md'], active: 'README.md', expanded: ['src'] };
		expect(parseViewState(JSON.stringify(state))).toEqual(state);
		expect(viewStateKey('threadline-workspace-jwt-auth')).toBe(
			'threadline-view-threadline-workspace-jwt-auth'
		);
	});

	it('reads anything else as nothing, or keeps only the well-formed part', () => {
		for (const text of [null, '', 'not json', '42', 'null'])
			expect(parseViewState(text)).toBeNull();
		expect(
			parseViewState(JSON.stringify({ tabs: ['a', 3, 'a', ''], active: 'b', expanded: 'src' }))
		).toEqual({ tabs: ['a'], active: null, expanded: [] });
	});

	it('reopens only what still exists; the active tab falls back to the last one kept', () => {
		const files = new Set(['src/a.ts', 'README.md']);
		const folders = new Set(['src']);
		expect(
			restorableViewState(
				{ tabs: ['src/a.ts', 'gone.ts', 'README.md'], active: 'gone.ts', expanded: ['src', 'old'] },
				{ file: (path) => files.has(path), folder: (path) => folders.has(path) }
			)
		).toEqual({ tabs: ['src/a.ts', 'README.md'], active: 'README.md', expanded: ['src'] });
	});
});
