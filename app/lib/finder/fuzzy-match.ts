/** A path that matches a Quick Open query, with where the query's letters were found. */
export interface FuzzyMatch {
	path: string;
	score: number;
	/** Indexes in `path` of the matched characters (for highlighting). */
	positions: number[];
}

/**
 * Whether `query`'s characters occur in `path` in order (case-insensitive, spaces ignored), and
 * how well: consecutive letters, letters at the start of a name or after `/ . - _`, and matches in
 * the file name score higher; long paths a little lower. Null when they do not all occur.
 */
export function fuzzyMatch(query: string, path: string): FuzzyMatch | null {
	const wanted = query.replace(/\s+/g, '').toLowerCase();
	if (wanted === '') return { path, score: 0, positions: [] };
	const haystack = path.toLowerCase();
	const nameStart = path.lastIndexOf('/') + 1;
	// Prefer a match inside the file name: search it first, then the whole path.
	const positions = positionsOf(wanted, haystack, nameStart) ?? positionsOf(wanted, haystack, 0);
	if (!positions) return null;
	let score = 0;
	for (let index = 0; index < positions.length; index++) {
		const position = positions[index] as number;
		score += 1;
		if (index > 0 && positions[index - 1] === position - 1) score += 5;
		const before = path[position - 1];
		if (position === 0 || before === '/' || before === '.' || before === '-' || before === '_')
			score += 3;
		if (position >= nameStart) score += 2;
	}
	if (haystack.slice(nameStart).startsWith(wanted)) score += 10;
	score -= path.length / 100;
	return { path, score, positions };
}

function positionsOf(wanted: string, haystack: string, from: number): number[] | null {
	const positions: number[] = [];
	let cursor = from;
	for (const character of wanted) {
		const found = haystack.indexOf(character, cursor);
		if (found === -1) return null;
		positions.push(found);
		cursor = found + 1;
	}
	return positions;
}

/** The best `limit` matches of `query` among `paths`, best first (ties: shorter, then by name). */
export function rankPaths(query: string, paths: Iterable<string>, limit = 50): FuzzyMatch[] {
	const matches: FuzzyMatch[] = [];
	for (const path of paths) {
		const match = fuzzyMatch(query, path);
		if (match) matches.push(match);
	}
	matches.sort(
		(left, right) =>
			right.score - left.score ||
			left.path.length - right.path.length ||
			(left.path < right.path ? -1 : 1)
	);
	return matches.slice(0, limit);
}
