/**
 * Tab completion for the offline terminal's line editor, as bash does it for the last word of
 * the line: a command name in command position (first word, or after `|`, `;`, `&&`, `||`), a
 * workspace path anywhere else (or when the word has a `/`). One match completes it (`/` after
 * a folder, a space after a file or command); several extend the word to what they share, and
 * when that adds nothing the matches are listed for the person to choose from.
 */

export interface CompletionEntry {
	name: string;
	folder: boolean;
}

export interface CompletionSource {
	/** Commands the shell can run, builtins included. */
	commands: readonly string[];
	/** The entries directly inside a workspace-relative folder ('' is the root); null if none. */
	children(folder: string): readonly CompletionEntry[] | null;
}

export interface LineCompletion {
	/** The line after completing (unchanged when nothing could be added). */
	line: string;
	/** Matches to show, when there are several and the line could not be extended. */
	candidates: string[];
}

const commandSeparators = new Set(['|', '||', '&&', ';', '&']);
/** What the terminal shows as `/workspace`: absolute paths there complete like relative ones. */
const workspaceRoot = '/workspace';

export function completeLine(line: string, cwd: string, source: CompletionSource): LineCompletion {
	const wordStart = Math.max(line.lastIndexOf(' '), line.lastIndexOf('\t')) + 1;
	const word = line.slice(wordStart);
	const before = line.slice(0, wordStart).trim().split(/\s+/).filter(Boolean);
	const commandPosition = before.length === 0 || commandSeparators.has(before.at(-1) as string);
	const replaceWord = (text: string) => line.slice(0, wordStart) + text;

	if (commandPosition && !word.includes('/')) {
		const names = [...new Set(source.commands)].filter((name) => name.startsWith(word)).sort();
		return finish(
			word,
			names.map((name) => ({ text: name, suffix: ' ', shown: name })),
			replaceWord,
			line
		);
	}

	const slash = word.lastIndexOf('/');
	const typedFolder = slash === -1 ? '' : word.slice(0, slash + 1);
	const base = slash === -1 ? word : word.slice(slash + 1);
	const folder = resolveFolder(cwd, typedFolder);
	if (folder === null) return { line, candidates: [] };
	const entries = source.children(folder) ?? [];
	// Hidden entries only when asked for, as bash does (`.orchestration` after typing `.`).
	const matches = entries
		.filter(
			(entry) =>
				entry.name.startsWith(base) && (base.startsWith('.') || !entry.name.startsWith('.'))
		)
		.sort((left, right) => left.name.localeCompare(right.name))
		.map((entry) => ({
			text: typedFolder + entry.name,
			suffix: entry.folder ? '/' : ' ',
			shown: entry.folder ? `${entry.name}/` : entry.name
		}));
	return finish(word, matches, replaceWord, line);
}

function finish(
	word: string,
	matches: { text: string; suffix: string; shown: string }[],
	replaceWord: (text: string) => string,
	line: string
): LineCompletion {
	if (matches.length === 0) return { line, candidates: [] };
	if (matches.length === 1) {
		const only = matches[0] as (typeof matches)[number];
		return { line: replaceWord(only.text + only.suffix), candidates: [] };
	}
	const shared = commonPrefix(matches.map((match) => match.text));
	if (shared.length > word.length) return { line: replaceWord(shared), candidates: [] };
	return { line, candidates: matches.map((match) => match.shown) };
}

function commonPrefix(texts: readonly string[]): string {
	let prefix = texts[0] ?? '';
	for (const text of texts) {
		let length = 0;
		while (length < prefix.length && length < text.length && prefix[length] === text[length])
			length++;
		prefix = prefix.slice(0, length);
	}
	return prefix;
}

/**
 * The workspace-relative folder a typed path prefix names, from the terminal's folder; null when
 * it leaves the workspace (the terminal cannot go there either).
 */
export function resolveFolder(cwd: string, typed: string): string | null {
	let parts: string[];
	if (typed.startsWith('/')) {
		if (typed !== `${workspaceRoot}/` && !typed.startsWith(`${workspaceRoot}/`)) return null;
		parts = typed.slice(workspaceRoot.length).split('/');
	} else {
		parts = [...cwd.split('/'), ...typed.split('/')];
	}
	const resolved: string[] = [];
	for (const part of parts) {
		if (part === '' || part === '.') continue;
		if (part === '..') {
			if (resolved.length === 0) return null;
			resolved.pop();
		} else resolved.push(part);
	}
	return resolved.join('/');
}

/** Matches laid out in columns across `width` characters, as lines (bash's listing). */
export function formatCandidates(candidates: readonly string[], width: number): string[] {
	const columnWidth = Math.max(...candidates.map((candidate) => candidate.length)) + 2;
	const columns = Math.max(1, Math.floor(width / columnWidth));
	const rows = Math.ceil(candidates.length / columns);
	const lines: string[] = [];
	for (let row = 0; row < rows; row++) {
		let text = '';
		for (let column = 0; column < columns; column++) {
			const candidate = candidates[column * rows + row];
			if (candidate !== undefined) text += candidate.padEnd(columnWidth);
		}
		lines.push(text.trimEnd());
	}
	return lines;
}

/** The children of `folder` among the workspace's files and folders (paths relative, '/'). */
export function childrenOf(
	folder: string,
	files: Iterable<string>,
	folders: Iterable<string>
): CompletionEntry[] {
	const prefix = folder === '' ? '' : `${folder}/`;
	const found = new Map<string, boolean>();
	const visit = (path: string, isFolder: boolean) => {
		if (!path.startsWith(prefix) || path.length === prefix.length) return;
		const rest = path.slice(prefix.length);
		const slash = rest.indexOf('/');
		const name = slash === -1 ? rest : rest.slice(0, slash);
		found.set(name, (found.get(name) ?? false) || isFolder || slash !== -1);
	};
	for (const path of files) visit(path, false);
	for (const path of folders) visit(path, true);
	return [...found].map(([name, isFolder]) => ({ name, folder: isFolder }));
}
