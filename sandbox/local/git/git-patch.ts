import { structuredPatch } from 'diff';

/** One side of a file in a diff: absent, or its bytes and blob id. */
export type PatchSide = { bytes: Uint8Array; oid: string } | null;

/**
 * One file's part of `git diff` / `git show`, in git's format: the `diff --git` header, the
 * extended header for created and deleted files, the `index` line with abbreviated blob ids,
 * then unified hunks with 3 lines of context (or "Binary files … differ"). Pure.
 */
export function formatFilePatch(path: string, before: PatchSide, after: PatchSide): string {
	const lines = [`diff --git a/${path} b/${path}`];
	const zero = '0000000';
	if (!before) lines.push('new file mode 100644');
	if (!after) lines.push('deleted file mode 100644');
	lines.push(
		`index ${before ? before.oid.slice(0, 7) : zero}..${after ? after.oid.slice(0, 7) : zero}${before && after ? ' 100644' : ''}`
	);
	const oldName = before ? `a/${path}` : '/dev/null';
	const newName = after ? `b/${path}` : '/dev/null';
	if (isBinary(before?.bytes) || isBinary(after?.bytes)) {
		lines.push(`Binary files ${oldName} and ${newName} differ`);
		return `${lines.join('\n')}\n`;
	}
	const decoder = new TextDecoder();
	const oldText = before ? decoder.decode(before.bytes) : '';
	const newText = after ? decoder.decode(after.bytes) : '';
	const patch = structuredPatch(oldName, newName, oldText, newText, undefined, undefined, {
		context: 3
	});
	if (patch.hunks.length === 0) return `${lines.join('\n')}\n`;
	lines.push(`--- ${oldName}`, `+++ ${newName}`);
	for (const hunk of patch.hunks) {
		lines.push(
			`@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`,
			...hunk.lines
		);
	}
	return `${lines.join('\n')}\n`;
}

/** Lines added and removed, for `git commit`'s summary. */
export function countChangedLines(
	before: PatchSide,
	after: PatchSide
): {
	insertions: number;
	deletions: number;
} {
	if (isBinary(before?.bytes) || isBinary(after?.bytes)) return { insertions: 0, deletions: 0 };
	const decoder = new TextDecoder();
	const patch = structuredPatch(
		'a',
		'b',
		before ? decoder.decode(before.bytes) : '',
		after ? decoder.decode(after.bytes) : '',
		undefined,
		undefined,
		{ context: 0 }
	);
	let insertions = 0;
	let deletions = 0;
	for (const hunk of patch.hunks) {
		for (const line of hunk.lines) {
			if (line.startsWith('+')) insertions++;
			else if (line.startsWith('-')) deletions++;
		}
	}
	return { insertions, deletions };
}

/**
 * git's hunk range: `start,count`, the count left out when it is 1. An empty side is written as
 * the line before the hunk (`-0,0` for a new file), as git and jsdiff's own formatter do.
 */
function range(start: number, count: number): string {
	if (count === 0) return `${start - 1},0`;
	return count === 1 ? `${start}` : `${start},${count}`;
}

/** git's own test: a NUL byte in the first 8,000 bytes. */
function isBinary(bytes: Uint8Array | undefined): boolean {
	if (!bytes) return false;
	const end = Math.min(bytes.length, 8000);
	for (let index = 0; index < end; index++) if (bytes[index] === 0) return true;
	return false;
}
