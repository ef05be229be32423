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
	/** Subcommands by command (`git st` → `status`), completed as the word after the command. */
	subcommands?: Readonly<Record<string, readonly string[]>>;
}

export interface LineCompletion {
	/** The line after completing (unchanged when nothing could be added). */
	line: string;
	/** Matches to show, when there are several and the line could not be extended. */
	candidates: string[];
}

/** Characters that end a word in the shell's grammar (unless escaped with a backslash). */
const wordBoundaries = new Set([' ', '\t', '|', ';', '&', '<', '>', '(', ')']);
/** After one of these (or at the start) a word is a command name. */
const commandStarters = new Set(['|', ';', '&', '(']);
/** Characters a completed name must escape to stay one word (bash escapes the same ones). */
const needsEscape = /[\s|;&<>()$`"'\\*?[\]{}!#~]/g;
/** What the terminal shows as `/workspace`: absolute paths there complete like relative ones. */
const workspaceRoot = '/workspace';

export function completeLine(line: string, cwd: string, source: CompletionSource): LineCompletion {
	const wordStart = startOfLastWord(line);
	const typed = line.slice(wordStart);
	// A word may open with a quote: match inside it and keep it open, as bash does.
	const quote = typed.startsWith("'") || typed.startsWith('"') ? typed[0] : '';
	const word = quote ? typed.slice(1) : typed.replace(/\\(.)/g, '$1');
	const encode = (text: string) => (quote ? quote + text : text.replace(needsEscape, '\\$&'));
	const replaceWord = (text: string, closing = false) =>
		line.slice(0, wordStart) + encode(text) + (closing && quote ? quote : '');
	const before = line.slice(0, wordStart).trimEnd();
	const commandPosition = before === '' || commandStarters.has(before.at(-1) as string);

	if (commandPosition && !word.includes('/')) {
		const names = [...new Set(source.commands)].filter((name) => name.startsWith(word)).sort();
		return finish(
			word,
			names.map((name) => ({ text: name, suffix: ' ', shown: name })),
			replaceWord,
			line
		);
	}

	const subcommands = subcommandsAfter(before, source.subcommands);
	if (subcommands && !word.includes('/')) {
		const names = subcommands.filter((name) => name.startsWith(word)).sort();
		if (names.length > 0)
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

/** The subcommands of the command right before the word, when that command starts its part. */
function subcommandsAfter(
	before: string,
	known: CompletionSource['subcommands']
): readonly string[] | null {
	if (!known) return null;
	const match = /(?:^|[|;&(]\s*)([\w.-]+)$/.exec(before);
	const command = match?.[1];
	return command && Object.hasOwn(known, command) ? (known[command] ?? null) : null;
}

/**
 * Where the last word starts: after the last unescaped boundary character outside quotes, or at
 * the quote that is still open.
 */
function startOfLastWord(line: string): number {
	let start = 0;
	let quote = '';
	let quoteStart = 0;
	for (let index = 0; index < line.length; index++) {
		const character = line[index] as string;
		if (quote) {
			if (character === quote) quote = '';
			else if (character === '\\' && quote === '"') index++;
			continue;
		}
		if (character === '\\') index++;
		else if (character === "'" || character === '"') {
			quote = character;
			quoteStart = index;
		} else if (wordBoundaries.has(character)) start = index + 1;
	}
	return quote ? quoteStart : start;
}

function finish(
	word: string,
	matches: { text: string; suffix: string; shown: string }[],
	replaceWord: (text: string, closing?: boolean) => string,
	line: string
): LineCompletion {
	if (matches.length === 0) return { line, candidates: [] };
	if (matches.length === 1) {
		const only = matches[0] as (typeof matches)[number];
		// A finished name closes an open quote; the separator stays outside it.
		if (only.suffix === ' ') return { line: `${replaceWord(only.text, true)} `, candidates: [] };
		return { line: replaceWord(only.text + only.suffix), candidates: [] };
	}
	const shared = commonPrefix(matches.map((match) => match.text));
	if (shared.length > word.length) return { line: replaceWord(shared), candidates: [] };
	return { line, candidates: matches.map((match) => printable(match.shown)) };
}

/**
 * A name as the terminal may print it: control characters (an escape sequence in a file name
 * would drive the terminal) shown as `?`, as `ls` does.
 */
function printable(name: string): string {
	// eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
	return name.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
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
