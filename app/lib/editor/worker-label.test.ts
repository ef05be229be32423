import { describe, expect, it } from 'vitest';
import { workerKindForLabel } from './worker-label.js';

describe('workerKindForLabel', () => {
	it.each([
		['editorWorkerService', 'editor'],
		['typescript', 'typescript'],
		['javascript', 'typescript'],
		['json', 'json'],
		['css', 'css'],
		['scss', 'css'],
		['less', 'css'],
		['html', 'html'],
		['handlebars', 'html'],
		['razor', 'html'],
		['yaml', 'yaml']
	])('label %s runs in the %s worker', (label, kind) => {
		expect(workerKindForLabel(label)).toBe(kind);
	});

	it('gives unknown labels the editor worker instead of failing', () => {
		expect(workerKindForLabel('monaco-editor-worker')).toBe('editor');
		expect(workerKindForLabel('')).toBe('editor');
		expect(workerKindForLabel('TypeScript')).toBe('editor');
	});
});
