/**
 * Governance paths: what only governance changes. `.orchestration/` (the intents, the hook policy,
 * the ledger's derived files), `.git/` (the repository's history) and `.intentignore` (which
 * intents need a person's approval for every change). All three are anchored at the workspace
 * root. Every path that writes — agent tools whatever their scope, shell transactions (the
 * agent's, criteria, the person's terminal and the npm scripts it runs), git's working-tree
 * writes, step solutions, checkpoint restores, the editor — asks `governancePathKind` and refuses
 * what it names; protection changes only through the intents panel (ToolPipeline.setIntentProtection).
 */
export type GovernancePathKind = 'orchestration' | 'git' | 'intentignore';

export const governancePathPatterns = ['.orchestration/**', '.git/**', '.intentignore'] as const;

const kindsByFoldedName = new Map<string, GovernancePathKind>([
	['.orchestration', 'orchestration'],
	['.git', 'git'],
	['.intentignore', 'intentignore']
]);

/**
 * Letters that render like the Latin letters of the three names (Unicode's confusables, UTS #39,
 * for a c e g h i n o r s), after case folding. Refusing a look-alike is cheap; letting one through
 * means a tree where `.оrchestration` (Cyrillic о) passes for the real folder.
 */
const confusableLetters = new Map<string, string>([
	['\u0430', 'a'], // Cyrillic а
	['\u0251', 'a'], // Latin alpha ɑ
	['\u03b1', 'a'], // Greek α
	['\u0441', 'c'], // Cyrillic с
	['\u03f2', 'c'], // Greek lunate sigma ϲ
	['\u1d04', 'c'], // small capital ᴄ
	['\u0435', 'e'], // Cyrillic е
	['\u04bd', 'e'], // Cyrillic ҽ
	['\u0261', 'g'], // script g ɡ
	['\u0581', 'g'], // Armenian ց
	['\u018d', 'g'], // turned delta ƍ
	['\u04bb', 'h'], // Cyrillic һ
	['\u0570', 'h'], // Armenian հ
	['\u0131', 'i'], // dotless ı
	['\u0456', 'i'], // Cyrillic і
	['\u0269', 'i'], // iota ɩ
	['\u03b9', 'i'], // Greek ι
	['\u04cf', 'i'], // Cyrillic palochka ӏ
	['\u0578', 'n'], // Armenian ո
	['\u057c', 'n'], // Armenian ռ
	['\u043e', 'o'], // Cyrillic о
	['\u03bf', 'o'], // Greek ο
	['\u03c3', 'o'], // Greek σ
	['\u0585', 'o'], // Armenian օ
	['\u1d0f', 'o'], // small capital ᴏ
	['\u0433', 'r'], // Cyrillic г
	['\u1d26', 'r'], // small capital gamma ᴦ
	['\u0455', 's'], // Cyrillic ѕ
	['\u017f', 's'], // long s ſ
	['\ua731', 's'] // small capital ꜱ
]);

const printableAscii = /^[\x20-\x7e]*$/;
const ignorable = /\p{Default_Ignorable_Code_Point}/gu;
const combiningMark = /\p{M}/gu;
const trailingDotsAndSpaces = /[.\s]+$/u;

/**
 * One name as a case-insensitive, confusable-blind filesystem (or a reader) would take it:
 * Unicode compatibility (NFKC: full-width `．ｇｉｔ`, ligatures), case folding (`ſ` → s, `ı` → i,
 * `İ` → i), marks and invisible characters dropped (HFS+ ignores them), look-alike letters of
 * other scripts mapped to Latin, an NTFS stream suffix (`:x`) cut, trailing dots and spaces dropped
 * (Windows drops them: `.git.` is `.git`). Only ever compared, never used as a path.
 * sandbox/local/git/git-path-rules.ts keeps a copy for git (sandbox/ may import only types from
 * here); a test keeps the two in step.
 */
export function foldedName(segment: string): string {
	if (printableAscii.test(segment))
		return (segment.split(':')[0] as string).toLowerCase().replace(trailingDotsAndSpaces, '');
	// Look-alikes are mapped before folding too: compatibility forms can turn one into another
	// look-alike's letter (Greek lunate sigma ϲ, a c, is σ once folded, an o).
	let folded = lookAlikesMapped(segment).normalize('NFKC').toUpperCase().toLowerCase();
	folded = folded.normalize('NFKD').replace(combiningMark, '').replace(ignorable, '');
	return (lookAlikesMapped(folded).normalize('NFKC').split(':')[0] as string).replace(
		trailingDotsAndSpaces,
		''
	);
}

function lookAlikesMapped(text: string): string {
	let mapped = '';
	for (const character of text) mapped += confusableLetters.get(character) ?? character;
	return mapped;
}

/**
 * Which governance path `path` is or lies under, or null. The first segment that remains once
 * `.`, `..` and empty segments are resolved is folded (`foldedName`); `\` counts as a separator,
 * so a raw, unnormalised path is judged as strictly as a normalised one.
 */
export function governancePathKind(path: string): GovernancePathKind | null {
	if (typeof path !== 'string') return null;
	const first = firstSegment(path);
	if (first === undefined) return null;
	// A plain ASCII name folds only its case and its end: without a leading dot it is none of them.
	if (first.charCodeAt(0) !== 0x2e && printableAscii.test(first)) return null;
	return kindsByFoldedName.get(foldedName(first)) ?? null;
}

/** `''`, `.` and `..` segments, or a backslash: the path needs resolving before it is judged. */
const irregularPath = /(?:^|\/)\.{0,2}(?:\/|$)|\\/;

function firstSegment(path: string): string | undefined {
	// Most paths are already normalised: their first segment is the one up to the first slash.
	if (!irregularPath.test(path)) {
		const slash = path.indexOf('/');
		return slash === -1 ? path : path.slice(0, slash);
	}
	const segments: string[] = [];
	for (const segment of path.split(/[\\/]/)) {
		if (segment === '' || segment === '.') continue;
		if (segment === '..') segments.pop();
		else segments.push(segment);
	}
	return segments[0];
}

/** Whether `path` is a governance path (see governancePathKind): the one rule every writer asks. */
export function isGovernancePath(path: string): boolean {
	return governancePathKind(path) !== null;
}

/** How a refusal names the governance path, e.g. ".git/" or ".intentignore". */
export function governancePathLabel(kind: GovernancePathKind): string {
	return kind === 'intentignore' ? '.intentignore' : `.${kind}/`;
}
