import { describe, expect, it } from 'vitest';
import { countChangedLines, formatFilePatch } from './git-patch.js';

const side = (text: string, oid = 'f'.repeat(40)) => ({
	bytes: new TextEncoder().encode(text),
	oid
});

describe("git's patch format", () => {
	it('writes a new file from /dev/null and a deleted one to it', () => {
		expect(formatFilePatch('a.txt', null, side('one\ntwo\n', '1234567abc'))).toBe(
			'diff --git a/a.txt b/a.txt\nnew file mode 100644\nindex 0000000..1234567\n--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n'
		);
		expect(formatFilePatch('a.txt', side('one\n', '7654321abc'), null)).toBe(
			'diff --git a/a.txt b/a.txt\ndeleted file mode 100644\nindex 7654321..0000000\n--- a/a.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-one\n'
		);
	});

	it('keeps three lines of context and notes a missing final newline', () => {
		const before = side('1\n2\n3\n4\n5\n6\n7\n8', 'aaaaaaa');
		const after = side('1\n2\n3\n4\n5\n6\n7\nEIGHT', 'bbbbbbb');
		expect(formatFilePatch('n.txt', before, after)).toBe(
			'diff --git a/n.txt b/n.txt\nindex aaaaaaa..bbbbbbb 100644\n--- a/n.txt\n+++ b/n.txt\n@@ -5,4 +5,4 @@\n 5\n 6\n 7\n-8\n\\ No newline at end of file\n+EIGHT\n\\ No newline at end of file\n'
		);
	});

	it('says binary files differ instead of printing them', () => {
		const binary = { bytes: new Uint8Array([0, 1, 2]), oid: 'c'.repeat(40) };
		expect(formatFilePatch('logo.png', null, binary)).toContain(
			'Binary files /dev/null and b/logo.png differ\n'
		);
		expect(countChangedLines(null, binary)).toEqual({ insertions: 0, deletions: 0 });
	});

	it('counts insertions and deletions for the commit summary', () => {
		expect(countChangedLines(side('a\nb\nc\n'), side('a\nB\nc\nd\n'))).toEqual({
			insertions: 2,
			deletions: 1
		});
	});
});
