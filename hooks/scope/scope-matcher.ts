import { Minimatch, type MinimatchOptions } from 'minimatch';
import type { Intent, IntentsDocument } from '../intents/intent.js';
import { normalizeWorkspacePath } from '../paths/normalize-path.js';

/**
 * Answers "may this intent touch this path?" from the intent's `owned_scope` globs.
 *
 * Pattern rules, as an instructor would expect them:
 * - minimatch globs with `dot: true` (`src/**` covers `src/.env`);
 * - `src/auth/` (trailing slash) means everything under the folder, like `src/auth/**`;
 * - `dir/**` also covers the folder `dir` itself, so creating or removing it is in scope;
 * - a leading `./` or `/` is ignored (patterns are relative to the workspace root);
 * - `!pattern` excludes: a path is in scope when some pattern matches and no exclusion does;
 * - a pattern without glob characters is an exact path (`src/middleware/jwt.ts`);
 * - a pattern that climbs out of the workspace or is empty matches nothing.
 * Paths passed in must already be normalised (hooks/paths/normalize-path.ts); matching is
 * case-sensitive, as on the POSIX filesystems the sandbox uses.
 */
export interface ScopeMatcher {
	isInScope(intentId: string, path: string): boolean;
	/** The intent's owned_scope as written (for messages and prompts); [] for an unknown intent. */
	patternsOf(intentId: string): string[];
	/** The first path the intent may not touch, or null when all are in scope. */
	firstPathOutOfScope(intentId: string, paths: string[]): string | null;
}

const globOptions: MinimatchOptions = {
	dot: true,
	// Negation is handled here (as exclusion); a leading '#' in a quoted pattern is a file name.
	nonegate: true,
	nocomment: true,
	// Paths are POSIX whatever the host: never let minimatch read `\` as a separator.
	platform: 'linux'
};

const globCharacters = /[*?[\]{}()\\]/;

/** Checks ordered from cheapest to dearest: a Set lookup, prefix compares, then compiled globs. */
class PatternSet {
	readonly exact = new Set<string>();
	readonly folders: string[] = [];
	readonly globs: Glob[] = [];

	get isEmpty(): boolean {
		return this.exact.size === 0 && this.folders.length === 0 && this.globs.length === 0;
	}

	matches(path: string): boolean {
		if (this.exact.has(path)) return true;
		for (const folder of this.folders) {
			if (
				path.startsWith(folder) &&
				(path.length === folder.length || path.charCodeAt(folder.length) === 47) // '/'
			) {
				return true;
			}
		}
		for (const glob of this.globs) {
			// Most globs of most intents are rooted in a literal folder the path is not under:
			// a startsWith rules them out without running the matcher.
			if (path.startsWith(glob.literalPrefix) && glob.matcher.match(path)) return true;
		}
		return false;
	}

	add(pattern: string): void {
		if (pattern.endsWith('/**')) {
			const folder = pattern.slice(0, -3);
			if (folder === '') {
				this.globs.push(compileGlob(pattern));
				return;
			}
			if (!globCharacters.test(folder)) {
				const normalized = normalizeWorkspacePath(folder);
				if (normalized.ok) this.folders.push(normalized.path);
				return;
			}
			this.globs.push(compileGlob(pattern), compileGlob(folder));
			return;
		}
		if (!globCharacters.test(pattern)) {
			const normalized = normalizeWorkspacePath(pattern);
			if (normalized.ok) this.exact.add(normalized.path);
			return;
		}
		this.globs.push(compileGlob(pattern));
	}
}

interface Glob {
	matcher: Minimatch;
	/** The leading whole segments without glob characters, with their '/', e.g. `src/auth/`. */
	literalPrefix: string;
}

function compileGlob(pattern: string): Glob {
	const segments = pattern.split('/');
	let literalPrefix = '';
	// The last segment is never part of the prefix: the prefix must end at a '/'.
	for (const segment of segments.slice(0, -1)) {
		if (segment === '' || segment === '.' || segment === '..' || globCharacters.test(segment))
			break;
		literalPrefix += `${segment}/`;
	}
	return { matcher: new Minimatch(pattern, globOptions), literalPrefix };
}

interface CompiledScope {
	include: PatternSet;
	/** Null when the intent has no exclusions, so the common case skips a call. */
	exclude: PatternSet | null;
}

const matchers = new WeakMap<IntentsDocument, ScopeMatcher>();

/**
 * The matcher for a parsed document, built once per document object: documents are treated as
 * immutable, so a changed active_intents.yaml is a new document and gets a new matcher.
 */
export function compileScope(document: IntentsDocument): ScopeMatcher {
	const cached = matchers.get(document);
	if (cached) return cached;
	const matcher = createMatcher(document);
	matchers.set(document, matcher);
	return matcher;
}

function createMatcher(document: IntentsDocument): ScopeMatcher {
	const intents = new Map<string, Intent>();
	for (const intent of document.intents) {
		// parseIntents rejects duplicate ids; for a hand-built document the first one wins.
		if (!intents.has(intent.id)) intents.set(intent.id, intent);
	}
	// Compiled on first use: a session usually touches one or two of many intents.
	const compiled = new Map<string, CompiledScope>();

	const scopeOf = (intentId: string): CompiledScope | undefined => {
		const existing = compiled.get(intentId);
		if (existing) return existing;
		const intent = intents.get(intentId);
		if (!intent) return undefined;
		const scope = compileIntentScope(intent.owned_scope);
		compiled.set(intentId, scope);
		return scope;
	};

	const isInScope = (intentId: string, path: string): boolean => {
		if (path === '') return false;
		const scope = scopeOf(intentId);
		if (!scope || !scope.include.matches(path)) return false;
		return scope.exclude === null || !scope.exclude.matches(path);
	};

	return {
		isInScope,
		patternsOf(intentId) {
			return [...(intents.get(intentId)?.owned_scope ?? [])];
		},
		firstPathOutOfScope(intentId, paths) {
			for (const path of paths) {
				if (!isInScope(intentId, path)) return path;
			}
			return null;
		}
	};
}

function compileIntentScope(patterns: readonly string[]): CompiledScope {
	const include = new PatternSet();
	const exclude = new PatternSet();
	for (const raw of patterns) {
		if (typeof raw !== 'string') continue;
		let pattern = raw.trim().normalize('NFC');
		let negations = 0;
		while (pattern.startsWith('!')) {
			negations++;
			pattern = pattern.slice(1);
		}
		pattern = stripRootPrefix(pattern);
		if (pattern.endsWith('/')) pattern = `${pattern.replace(/\/+$/, '')}/**`;
		if (pattern === '') continue;
		(negations % 2 === 1 ? exclude : include).add(pattern);
	}
	return { include, exclude: exclude.isEmpty ? null : exclude };
}

function stripRootPrefix(pattern: string): string {
	let stripped = pattern;
	for (;;) {
		if (stripped.startsWith('./')) stripped = stripped.slice(2);
		else if (stripped.startsWith('/')) stripped = stripped.slice(1);
		else return stripped;
	}
}
