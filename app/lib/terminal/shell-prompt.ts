import { boldCyan, withoutControlCharacters } from './terminal-text.js';

/** The name the prompt gives the workspace root, as the shell sees it (`/workspace`). */
const rootName = 'workspace';

/**
 * The folder part of the prompt: `workspace` for the root, `workspace/src` for `src`.
 * `cwd` is the session's workspace-relative folder ('' or '.' is the root).
 */
export function promptFolder(cwd: string): string {
	const segments = withoutControlCharacters(cwd)
		.split('/')
		.filter((segment) => segment !== '' && segment !== '.');
	return [rootName, ...segments].join('/');
}

/** The prompt text as the terminal shows it: `workspace/src $ `, the folder in bold cyan. */
export function formatPrompt(cwd: string): string {
	return `${boldCyan(promptFolder(cwd))} $ `;
}
