/**
 * Which bundled worker serves a Monaco worker label. Monaco asks `MonacoEnvironment.getWorker` for
 * a worker per label; a label we do not know gets the plain editor worker (diffs, links, word
 * completion), which is what Monaco itself falls back to.
 */

export type MonacoWorkerKind = 'editor' | 'typescript' | 'json' | 'css' | 'html' | 'yaml';

export function workerKindForLabel(label: string): MonacoWorkerKind {
	switch (label) {
		case 'typescript':
		case 'javascript':
			return 'typescript';
		case 'json':
			return 'json';
		case 'css':
		case 'scss':
		case 'less':
			return 'css';
		case 'html':
		case 'handlebars':
		case 'razor':
			return 'html';
		case 'yaml':
			return 'yaml';
		default:
			return 'editor';
	}
}
