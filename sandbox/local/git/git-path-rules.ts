/**
 * Names the offline git refuses to put in the repository or to write in the working tree.
 *
 * - Unsafe names: a segment git itself refuses in a tree (verify_path: `.git` in any case, with
 *   trailing dots or spaces, NTFS short names `git~1`, alternate data streams `.git:x`, HFS+
 *   ignorable characters inside). isomorphic-git writes such a tree but then refuses to read it,
 *   which would leave the repository unusable; so they never reach the index.
 * - Governance paths: `.orchestration/` and `.intentignore` at the root (compared the way the
 *   governance core's isGovernancePath does: case-folded, trailing dots and spaces dropped). A
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

export function isGovernedByTheCore(path: string): boolean {
	const slash = path.indexOf('/');
	const first = (slash === -1 ? path : path.slice(0, slash)).replace(/[. ]+$/, '').toLowerCase();
	return first === '.orchestration' || first === '.intentignore' || first === '.git';
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
