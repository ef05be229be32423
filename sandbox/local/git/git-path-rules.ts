/**
 * Names the offline git refuses to put in the repository or to write in the working tree.
 *
 * - Unsafe names: a segment git itself refuses in a tree (verify_path: `.git` in any case, with
 *   trailing dots or spaces, NTFS short names `git~1`, alternate data streams `.git:x`, HFS+
 *   ignorable characters inside). isomorphic-git writes such a tree but then refuses to read it,
 *   which would leave the repository unusable; so they never reach the index.
 * - Governance paths: `.orchestration/`, `.git` and `.intentignore` at the root, in any spelling
 *   the governance core's `governancePathKind` folds to them (hooks/paths/protected-paths.ts:
 *   NFKC, case folding, look-alike letters, invisible characters, trailing dots and spaces). A
 *   person's terminal may not write them, so git must not move them either, or the repository and
 *   the working tree would disagree after the line's review refused the write.
 */
export function unsafeSegment(path: string): string | null {
	for (const segment of path.split('/')) {
		const visible = segment.replace(/[\u200C-\u200F\u202A-\u202E\u206A-\u206F\uFEFF]/g, '');
		const folded = (visible.split(':')[0] as string).toLowerCase().replace(/[. ]+$/, '');
		if (
			segment.includes('\\') ||
			visible === '.' ||
			visible === '..' ||
			folded === '.git' ||
			/^\.?git~[1-9]$/.test(folded)
		)
			return segment;
	}
	return null;
}

/**
 * The governance core's `governancePathKind(path) !== null`, copied because sandbox/ may import
 * only types from hooks/: bin/governed/git-path-rules.test.ts checks that the two agree on every
 * spelling its generator makes. Change both together.
 */
export function isGovernedByTheCore(path: string): boolean {
	const first = firstSegment(path);
	if (first === undefined) return false;
	if (first.charCodeAt(0) !== 0x2e && printableAscii.test(first)) return false;
	return governanceNames.has(foldedName(first));
}

/** `''`, `.` and `..` segments, or a backslash: the path needs resolving before it is judged. */
const irregularPath = /(?:^|\/)\.{0,2}(?:\/|$)|\\/;

function firstSegment(path: string): string | undefined {
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

const governanceNames = new Set(['.orchestration', '.git', '.intentignore']);

/** Look-alike letters of the governance names (the core's confusableLetters). */
const confusableLetters = new Map<string, string>([
	['\u0430', 'a'],
	['\u0251', 'a'],
	['\u03b1', 'a'],
	['\u0441', 'c'],
	['\u03f2', 'c'],
	['\u1d04', 'c'],
	['\u0435', 'e'],
	['\u04bd', 'e'],
	['\u0261', 'g'],
	['\u0581', 'g'],
	['\u018d', 'g'],
	['\u04bb', 'h'],
	['\u0570', 'h'],
	['\u0131', 'i'],
	['\u0456', 'i'],
	['\u0269', 'i'],
	['\u03b9', 'i'],
	['\u04cf', 'i'],
	['\u0578', 'n'],
	['\u057c', 'n'],
	['\u043e', 'o'],
	['\u03bf', 'o'],
	['\u03c3', 'o'],
	['\u0585', 'o'],
	['\u1d0f', 'o'],
	['\u0433', 'r'],
	['\u1d26', 'r'],
	['\u0455', 's'],
	['\u017f', 's'],
	['\ua731', 's']
]);

const printableAscii = /^[\x20-\x7e]*$/;
const ignorable = /\p{Default_Ignorable_Code_Point}/gu;
const combiningMark = /\p{M}/gu;
const trailingDotsAndSpaces = /[.\s]+$/u;

/** The core's foldedName: NFKC, case folding, marks, invisibles and look-alikes, `:x`, trailing dots. */
function foldedName(segment: string): string {
	if (printableAscii.test(segment))
		return (segment.split(':')[0] as string).toLowerCase().replace(trailingDotsAndSpaces, '');
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

/** A control character (below U+0020, or DEL). */
export function hasControlCharacter(text: string): boolean {
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code < 0x20 || code === 0x7f) return true;
	}
	return false;
}

/** Text without control characters (line breaks included). */
export function withoutControlCharacters(text: string): string {
	let kept = '';
	for (const character of text) if (!hasControlCharacter(character)) kept += character;
	return kept;
}

/** A branch name git would accept (check-ref-format's rules, the ones that matter here). */
export function branchNameProblem(name: string): string | null {
	if (
		name === '' ||
		name === 'HEAD' ||
		name.startsWith('-') ||
		name.startsWith('.') ||
		name.startsWith('/') ||
		name.endsWith('/') ||
		name.endsWith('.') ||
		name.endsWith('.lock') ||
		name.includes('..') ||
		name.includes('//') ||
		name.includes('@{') ||
		name.includes('/.') ||
		/[\s~^:?*[\\]/.test(name) ||
		hasControlCharacter(name)
	)
		return `fatal: '${name}' is not a valid branch name`;
	return null;
}
