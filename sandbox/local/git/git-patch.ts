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
	const patch = boundedPatch(oldText, newText, 3);
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
	const patch = boundedPatch(
		before ? decoder.decode(before.bytes) : '',
		after ? decoder.decode(after.bytes) : '',
		0
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
 * jsdiff's Myers diff is quadratic in the worst case (a whole file rewritten): a 10,000-line
 * rewrite took ~20 s and blocked the shell's thread, where no timer can stop it. Past these
 * bounds the file is shown as one hunk, every old line removed and every new line added, which
 * is a correct (if not minimal) patch.
 */
const diffBounds = { maxEditLength: 4_000, timeout: 500 };

function boundedPatch(oldText: string, newText: string, context: number): StructuredPatchShape {
	const patch = structuredPatch('a', 'b', oldText, newText, undefined, undefined, {
		context,
		...diffBounds
	});
	if (patch) return patch;
	const oldLines = linesOf(oldText);
	const newLines = linesOf(newText);
	return {
		hunks: [
			{
				oldStart: 1,
				oldLines: oldLines.length,
				newStart: 1,
				newLines: newLines.length,
				lines: [
					...oldLines.map((line) => `-${line}`),
					...(oldText !== '' && !oldText.endsWith('\n') ? ['\\ No newline at end of file'] : []),
					...newLines.map((line) => `+${line}`),
					...(newText !== '' && !newText.endsWith('\n') ? ['\\ No newline at end of file'] : [])
				]
			}
		]
	};
}

interface StructuredPatchShape {
	hunks: {
		oldStart: number;
		oldLines: number;
		newStart: number;
		newLines: number;
		lines: string[];
	}[];
}

function linesOf(text: string): string[] {
	if (text === '') return [];
	const lines = text.split('\n');
	if (text.endsWith('\n')) lines.pop();
	return lines;
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
