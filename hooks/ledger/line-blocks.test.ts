import { describe, expect, it } from 'vitest';
import { lineBlocks, linesToBytes } from './line-blocks.js';

const decoder = new TextDecoder();

describe('lineBlocks', () => {
	it('writes each line and a newline, whatever the characters, across block boundaries', () => {
		const lines = Array.from({ length: 500 }, (_, index) => `{"n":${index},"s":"héllo ✓ 𝄞"}`);
		const blocks: string[] = [];
		// A small block, so many lines straddle where a block would overflow.
		for (const block of lineBlocks(lines, 64)) {
			expect(block.length).toBeLessThanOrEqual(64);
			blocks.push(decoder.decode(block.slice()));
		}
		expect(blocks.join('')).toBe(lines.map((line) => line + '\n').join(''));
		expect(blocks.length).toBeGreaterThan(100);
	});

	it('hands a line longer than a block over on its own, between the blocks around it', () => {
		const long = 'é'.repeat(100);
		const text: string[] = [];
		// Each block is read before the next is asked for: the generator refills the same one.
		for (const block of lineBlocks(['a', long, 'b'], 32)) text.push(decoder.decode(block));
		expect(text).toEqual(['a\n', long + '\n', 'b\n']);
	});

	it('gives nothing for no lines, and an empty line as its newline', () => {
		expect([...lineBlocks([])]).toEqual([]);
		expect(decoder.decode(linesToBytes(['', '']))).toBe('\n\n');
	});
});

describe('linesToBytes', () => {
	it('is the UTF-8 of the lines joined, each ending in a newline', () => {
		const lines = Array.from({ length: 3_000 }, (_, index) => 'x'.repeat(index % 700) + 'ü');
		expect(decoder.decode(linesToBytes(lines))).toBe(lines.map((line) => line + '\n').join(''));
	});
});
