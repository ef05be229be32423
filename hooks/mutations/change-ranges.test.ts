import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashLines } from '../hashing/sha256.js';
import { splitLines } from '../hashing/text-encoding.js';
import { changedRanges, rangesWithHashes, type LineRange } from './change-ranges.js';

describe('changedRanges', () => {
	it('covers the whole file when it is new', () => {
		expect(changedRanges(null, 'a\nb\nc\n')).toEqual([{ start_line: 1, end_line: 3 }]);
		expect(changedRanges(null, 'one line')).toEqual([{ start_line: 1, end_line: 1 }]);
	});

	it('returns nothing for a new empty file or an unchanged file', () => {
		expect(changedRanges(null, '')).toEqual([]);
		expect(changedRanges('a\nb\n', 'a\nb\n')).toEqual([]);
		expect(changedRanges('', '')).toEqual([]);
	});

	it('reports a changed line in the middle', () => {
		expect(changedRanges('a\nb\nc\n', 'a\nB\nc\n')).toEqual([{ start_line: 2, end_line: 2 }]);
	});

	it('reports inserted lines at the start, middle and end', () => {
		expect(changedRanges('b\nc\n', 'a\nb\nc\n')).toEqual([{ start_line: 1, end_line: 1 }]);
		expect(changedRanges('a\nc\n', 'a\nb1\nb2\nc\n')).toEqual([{ start_line: 2, end_line: 3 }]);
		expect(changedRanges('a\nb\n', 'a\nb\nc\nd\n')).toEqual([{ start_line: 3, end_line: 4 }]);
	});

	it('keeps separate edits apart and sorted', () => {
		const before = 'a\nb\nc\nd\ne\n';
		const after = 'A\nb\nc\nD\ne\nf\n';
		expect(changedRanges(before, after)).toEqual([
			{ start_line: 1, end_line: 1 },
			{ start_line: 4, end_line: 4 },
			{ start_line: 6, end_line: 6 }
		]);
	});

	it('merges adjacent changed lines into one range', () => {
		expect(changedRanges('a\nb\nc\nd\n', 'a\nX\nY\nd\n')).toEqual([{ start_line: 2, end_line: 3 }]);
		// A replacement next to an insertion is still one block of new lines.
		expect(changedRanges('a\nb\nz\n', 'a\nB\nnew\nz\n')).toEqual([{ start_line: 2, end_line: 3 }]);
	});

	it('returns nothing when lines were only deleted', () => {
		expect(changedRanges('a\nb\nc\n', 'a\nc\n')).toEqual([]);
		expect(changedRanges('a\nb\nc\n', '')).toEqual([]);
		expect(changedRanges('a\nb\nc\n', 'c\n')).toEqual([]);
	});

	it('does not count line endings or a final newline as a change', () => {
		expect(changedRanges('a\r\nb\r\n', 'a\nb\n')).toEqual([]);
		expect(changedRanges('a\nb', 'a\nb\n')).toEqual([]);
		expect(changedRanges('a\r\nb\r\n', 'a\nB')).toEqual([{ start_line: 2, end_line: 2 }]);
	});

	it('counts whitespace inside a line as a change', () => {
		expect(changedRanges('a\nb\n', 'a\nb \n')).toEqual([{ start_line: 2, end_line: 2 }]);
		expect(changedRanges('a\nb\n', 'a\n\nb\n')).toEqual([{ start_line: 2, end_line: 2 }]);
	});

	it('reports an emptied-then-refilled file as entirely new lines', () => {
		expect(changedRanges('', 'x\ny\n')).toEqual([{ start_line: 1, end_line: 2 }]);
	});

	it('stays correct for large files with scattered edits', () => {
		const beforeLines = Array.from({ length: 5000 }, (_, index) => `line ${index}`);
		const afterLines = beforeLines.map((line, index) => (index % 500 === 0 ? `${line}!` : line));
		const ranges = changedRanges(beforeLines.join('\n'), afterLines.join('\n'));
		expect(ranges).toHaveLength(10);
		expect(ranges[0]).toEqual({ start_line: 1, end_line: 1 });
		expect(ranges[9]).toEqual({ start_line: 4501, end_line: 4501 });
	});

	it('stays precise for a few hundred scattered edits', () => {
		const beforeLines = Array.from({ length: 3000 }, (_, index) => `line ${index}`);
		const afterLines = beforeLines.map((line, index) => (index % 10 === 5 ? `${line}!` : line));
		const ranges = changedRanges(beforeLines.join('\n'), afterLines.join('\n'));
		expect(ranges).toHaveLength(300);
		expect(ranges.every((range) => range.start_line === range.end_line)).toBe(true);
		expect(ranges[0]).toEqual({ start_line: 6, end_line: 6 });
	});

	it('covers the whole differing middle when two large files share nothing', () => {
		const before = ['same', ...Array.from({ length: 3000 }, (_, index) => `old ${index}`), 'end'];
		const after = ['same', ...Array.from({ length: 3000 }, (_, index) => `new ${index}`), 'end'];
		expect(changedRanges(before.join('\n'), after.join('\n'))).toEqual([
			{ start_line: 2, end_line: 3001 }
		]);
	});

	it('rejects content that is not a string', () => {
		expect(() => changedRanges('a', undefined as unknown as string)).toThrow(/new content/);
		expect(() => changedRanges(3 as unknown as string, 'a')).toThrow(/old content/);
	});
});

describe('changedRanges properties', () => {
	const line = fc.constantFrom('a', 'b', 'c', '', '  x', 'dd');
	const lines = fc.array(line, { maxLength: 12 });
	const document = fc
		.record({
			lines,
			lineEnding: fc.constantFrom('\n', '\r\n'),
			finalNewline: fc.boolean()
		})
		.map(({ lines: content, lineEnding, finalNewline }) =>
			content.length === 0 ? '' : content.join(lineEnding) + (finalNewline ? lineEnding : '')
		);

	function assertWellFormed(ranges: LineRange[], lineCount: number): void {
		let previousEnd = -1;
		for (const range of ranges) {
			expect(Number.isInteger(range.start_line)).toBe(true);
			expect(Number.isInteger(range.end_line)).toBe(true);
			expect(range.start_line).toBeGreaterThanOrEqual(1);
			expect(range.end_line).toBeGreaterThanOrEqual(range.start_line);
			expect(range.end_line).toBeLessThanOrEqual(lineCount);
			// Sorted, and merged: a gap of at least one unchanged line between ranges.
			expect(range.start_line).toBeGreaterThan(previousEnd + 1);
			previousEnd = range.end_line;
		}
	}

	function isSubsequence(needle: string[], haystack: string[]): boolean {
		let position = 0;
		for (const item of haystack)
			if (position < needle.length && item === needle[position]) position++;
		return position === needle.length;
	}

	it('keeps every range within 1..lineCount(after), sorted and merged', () => {
		fc.assert(
			fc.property(fc.option(document, { nil: null }), document, (before, after) => {
				assertWellFormed(changedRanges(before, after), splitLines(after).length);
			}),
			{ numRuns: 500 }
		);
	});

	it('finds nothing when the content did not change', () => {
		fc.assert(
			fc.property(document, (content) => {
				expect(changedRanges(content, content)).toEqual([]);
			}),
			{ numRuns: 500 }
		);
	});

	it('covers 1..lineCount with a single range for a new file', () => {
		fc.assert(
			fc.property(document, (content) => {
				const lineCount = splitLines(content).length;
				expect(changedRanges(null, content)).toEqual(
					lineCount === 0 ? [] : [{ start_line: 1, end_line: lineCount }]
				);
			}),
			{ numRuns: 500 }
		);
	});

	it('leaves outside the ranges only lines that were already there, in order', () => {
		fc.assert(
			fc.property(document, document, (before, after) => {
				const afterLines = splitLines(after);
				const changed = new Set<number>();
				for (const range of changedRanges(before, after)) {
					for (let number = range.start_line; number <= range.end_line; number++)
						changed.add(number);
				}
				const kept = afterLines.filter((_, index) => !changed.has(index + 1));
				expect(isSubsequence(kept, splitLines(before))).toBe(true);
			}),
			{ numRuns: 500 }
		);
	});
});

describe('rangesWithHashes', () => {
	it('hashes exactly the lines of each range with LF endings', async () => {
		const after = 'one\r\ntwo\r\nthree\r\nfour\r\n';
		const ranges = await rangesWithHashes(after, [
			{ start_line: 2, end_line: 3 },
			{ start_line: 4, end_line: 4 }
		]);
		expect(ranges).toEqual([
			{ start_line: 2, end_line: 3, content_hash: await hashLines(['two', 'three']) },
			{ start_line: 4, end_line: 4, content_hash: await hashLines(['four']) }
		]);
		expect(ranges[0]?.content_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
	});

	it('returns an empty list for no ranges', async () => {
		expect(await rangesWithHashes('a\n', [])).toEqual([]);
	});

	it('works on the output of changedRanges', async () => {
		const after = 'a\nB\nc\n';
		const [range] = await rangesWithHashes(after, changedRanges('a\nb\nc\n', after));
		expect(range).toEqual({ start_line: 2, end_line: 2, content_hash: await hashLines(['B']) });
	});

	it('rejects ranges outside the content or malformed ranges', async () => {
		await expect(rangesWithHashes('a\nb\n', [{ start_line: 2, end_line: 3 }])).rejects.toThrow(
			/beyond the end of the content \(2 lines\)/
		);
		await expect(rangesWithHashes('a\n', [{ start_line: 0, end_line: 1 }])).rejects.toThrow(
			/1-based/
		);
		await expect(rangesWithHashes('a\nb\n', [{ start_line: 2, end_line: 1 }])).rejects.toThrow(
			RangeError
		);
		await expect(rangesWithHashes('a\n', [{ start_line: 1.5, end_line: 1 }])).rejects.toThrow(
			RangeError
		);
	});
});
