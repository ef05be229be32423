/**
 * Paths that must never be removed (or recursively re-permissioned) wholesale: the file system root,
 * top-level system folders, the home folder, the whole working folder, its parent, and a variable
 * followed by `/` (`"$DIR"/`), which becomes `/` when the variable is empty.
 */

export type CatastrophicTargetKind = 'root' | 'system' | 'home' | 'working' | 'parent' | 'variable';

export interface CatastrophicTarget {
	kind: CatastrophicTargetKind;
	/** Plain words for a reason, e.g. "the whole file system". */
	description: string;
}

const variableFollowedBySlash = /^\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))\/+(?:\*|\.\*)?$/;
const homeWords = new Set(['~', '$HOME', '${HOME}']);

function isEverythingGlob(part: string): boolean {
	return part === '*' || part === '.*' || part === '**' || part === '*.*';
}

/** `null` when the target is an ordinary path. */
export function describeCatastrophicTarget(target: string): CatastrophicTarget | null {
	if (target === '') return null;
	const variable = variableFollowedBySlash.exec(target);
	if (variable) {
		const name = variable[1] ?? variable[2] ?? '';
		if (name === 'HOME') return { kind: 'home', description: 'the home folder' };
		return { kind: 'variable', description: `everything under / if $${name} is empty` };
	}
	const absolute = target.startsWith('/');
	const parts = target.split('/').filter((part) => part !== '' && part !== '.');
	if (absolute) {
		// `..` at the root stays at the root, so `/usr/..` and `/..` are `/`.
		const resolved: string[] = [];
		for (const part of parts) {
			if (part === '..') resolved.pop();
			else resolved.push(part);
		}
		if (resolved.length === 0) return { kind: 'root', description: 'the whole file system' };
		if (resolved.length === 1) {
			const folder = resolved[0]!;
			if (isEverythingGlob(folder)) return { kind: 'root', description: 'the whole file system' };
			return { kind: 'system', description: `the top-level folder /${folder}` };
		}
		return null;
	}
	const first = parts[0];
	if (first === undefined) return { kind: 'working', description: 'the whole working folder' };
	const rest = parts.slice(1);
	const restIsEverything = rest.length === 0 || (rest.length === 1 && isEverythingGlob(rest[0]!));
	if (homeWords.has(first) && restIsEverything) {
		return { kind: 'home', description: 'the home folder' };
	}
	if (parts.length === 1 && isEverythingGlob(first)) {
		return { kind: 'working', description: 'everything in the working folder' };
	}
	const parentCount = parts.findIndex((part) => part !== '..');
	const leadingParents = parentCount === -1 ? parts.length : parentCount;
	const afterParents = parts.slice(leadingParents);
	if (
		leadingParents > 0 &&
		(afterParents.length === 0 || (afterParents.length === 1 && isEverythingGlob(afterParents[0]!)))
	) {
		return { kind: 'parent', description: 'the parent folder' };
	}
	return null;
}
