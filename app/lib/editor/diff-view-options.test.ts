import { describe, expect, it } from 'vitest';
import { diffLayout, hiddenUnchangedRegions } from './diff-view-options.js';

describe('diff layout', () => {
	it('shows a new or a deleted file inline, and a change side by side', () => {
		expect(diffLayout({ original: null, modified: 'new\n' })).toEqual({ renderSideBySide: false });
		expect(diffLayout({ original: 'old\n', modified: null })).toEqual({ renderSideBySide: false });
		expect(diffLayout({ original: 'a\n', modified: 'b\n' })).toEqual({ renderSideBySide: true });
		// An empty file that gains content is a change of an existing file, not a new file.
		expect(diffLayout({ original: '', modified: 'b\n' })).toEqual({ renderSideBySide: true });
	});

	it('folds unchanged stretches and keeps context around each change', () => {
		expect(hiddenUnchangedRegions.enabled).toBe(true);
		expect(hiddenUnchangedRegions.contextLineCount).toBeGreaterThan(0);
	});
});
