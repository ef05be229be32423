import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	countLines,
	JsonlLineReader,
	malformedUtf8Error,
	parseJsonlLine,
	readJsonl
} from './read-jsonl.js';

const bytesOf = (piece: string) => new TextEncoder().encode(piece);

describe('readJsonl', () => {
	it('numbers lines from 1 and skips empty ones', () => {
		expect(readJsonl('{"a":1}\n\n[2]\n')).toEqual([
			{ line: 1, text: '{"a":1}', value: { a: 1 } },
			{ line: 3, text: '[2]', value: [2] }
		]);
	});

	it('accepts CRLF line breaks', () => {
		expect(readJsonl('1\r\n2\r\n').map((entry) => entry.value)).toEqual([1, 2]);
	});

	it('keeps a lone carriage return as part of the line', () => {
		expect(readJsonl('1\r')).toEqual([{ line: 1, text: '1\r', value: 1 }]);
	});

	it('reports a line that is not JSON with its number', () => {
		const [first, second] = readJsonl('1\n{oops\n');
		expect(first?.value).toBe(1);
		expect(second).toMatchObject({ line: 2, text: '{oops' });
		expect(second?.error).toMatch(/^not valid JSON \(/);
	});

	it('reads nothing from an empty text', () => {
		expect(readJsonl('')).toEqual([]);
	});
});

describe('JsonlLineReader', () => {
	// A BOM anywhere but the very start is part of its line (a tampered line must stay tampered).
	const pieces = [
		'{"a":1}',
		'"é✓𝄞"',
		'',
		'\r',
		'x\ry',
		'[2]',
		' ',
		'"\\u00e9"',
		'\ufeff',
		'\ufeff[3]'
	];
	const text = fc
		.array(fc.tuple(fc.constantFrom(...pieces), fc.constantFrom('\n', '\r\n', '')), {
			maxLength: 12
		})
		.map((parts) => parts.map(([line, end]) => line + end).join(''));

	/**
	 * The lines read (`malformed` only when set); any bytes given with a line must be its text, one
	 * ASCII character a byte.
	 */
	async function linesOf(reader: JsonlLineReader) {
		const lines: { line: number; text: string; malformed?: true }[] = [];
		for (let line = await reader.next(); line; line = await reader.next()) {
			if (line.bytes) {
				expect(line.bytes.every((byte) => byte < 0x80)).toBe(true);
				// TextDecoder, not String.fromCharCode(...bytes): an ASCII line may be longer than a
				// call's arguments can be.
				expect(new TextDecoder().decode(line.bytes)).toBe(line.text);
			}
			lines.push({
				line: line.line,
				text: line.text,
				...(line.malformed ? { malformed: true } : {})
			});
		}
		return lines;
	}

	const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

	/**
	 * The lines of a file's bytes as the reader must give them: each line's text as TextDecoder
	 * gives it, and `malformed` when a fatal TextDecoder refuses the line's bytes.
	 */
	function expectedOfBytes(file: Uint8Array) {
		const bytes =
			file[0] === 0xef && file[1] === 0xbb && file[2] === 0xbf ? file.subarray(3) : file;
		const lines: { line: number; text: string; malformed?: true }[] = [];
		let start = 0;
		let number = 0;
		for (let index = 0; index <= bytes.length; index++) {
			if (index < bytes.length && bytes[index] !== 10) continue;
			if (index === bytes.length && start === bytes.length) break;
			number++;
			// Only CRLF ends a line: a CR at the very end of the file stays in the last line.
			const end =
				index < bytes.length && index > start && bytes[index - 1] === 13 ? index - 1 : index;
			const line = bytes.subarray(start, end);
			start = index + 1;
			if (line.length === 0) continue;
			let malformed = false;
			try {
				strictDecoder.decode(line);
			} catch {
				malformed = true;
			}
			lines.push({
				line: number,
				text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(line),
				...(malformed ? { malformed: true as const } : {})
			});
		}
		return lines;
	}

	function expected(source: string) {
		return readJsonl(source).map(({ line, text: lineText }) => ({ line, text: lineText }));
	}

	it('reads the same lines as readJsonl from text, from text chunks and from byte chunks cut anywhere', async () => {
		await fc.assert(
			fc.asyncProperty(text, fc.array(fc.nat(), { maxLength: 6 }), async (source, cuts) => {
				const bytes = new TextEncoder().encode(source);
				const byteCuts = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort(
					(left, right) => left - right
				);
				const byteChunks: Uint8Array[] = [];
				let start = 0;
				for (const cut of [...byteCuts, bytes.length]) {
					byteChunks.push(bytes.slice(start, cut));
					start = cut;
				}
				const textCuts = [...new Set(cuts.map((cut) => cut % (source.length + 1)))].sort(
					(left, right) => left - right
				);
				const textChunks: string[] = [];
				start = 0;
				for (const cut of [...textCuts, source.length]) {
					textChunks.push(source.slice(start, cut));
					start = cut;
				}
				const want = expected(source);
				expect(await linesOf(new JsonlLineReader(source))).toEqual(want);
				// Bytes read as decoding the whole file reads them: only the file's first BOM goes.
				expect(await linesOf(new JsonlLineReader(byteChunks))).toEqual(
					expected(new TextDecoder().decode(bytes))
				);
				expect(await linesOf(new JsonlLineReader(textChunks))).toEqual(want);
			}),
			{ numRuns: 1_500 }
		);
	});

	it('reads any bytes (invalid UTF-8, lines longer than a chunk) as decoding the whole file does', async () => {
		// Lines of ASCII, of ASCII with one non-ASCII or invalid byte, and now and then a long one;
		// cut into chunks anywhere.
		const asciiLine = fc.integer({ min: 0, max: 900 }).map((length) => 'a'.repeat(length));
		const oddByte = fc.constantFrom([0xc3, 0xa9], [0x80], [0xff], [0xe2, 0x80], [0xef, 0xbb, 0xbf]);
		const line = fc.oneof(
			{ weight: 6, arbitrary: asciiLine.map((text) => new TextEncoder().encode(text)) },
			{
				weight: 2,
				arbitrary: fc
					.tuple(asciiLine, oddByte, asciiLine)
					.map(([before, odd, after]) =>
						Uint8Array.from([
							...new TextEncoder().encode(before),
							...odd,
							...new TextEncoder().encode(after)
						])
					)
			},
			{
				weight: 1,
				arbitrary: fc
					.integer({ min: 65_000, max: 140_000 })
					.map((length) => new Uint8Array(length).fill(0x62))
			}
		);
		const file = fc
			.array(fc.tuple(line, fc.constantFrom([10], [13, 10], [])), { maxLength: 400 })
			.map((lines) => {
				const parts = lines.flatMap(([bytes, end]) => [...bytes, ...end]);
				return Uint8Array.from(parts);
			});
		await fc.assert(
			fc.asyncProperty(file, fc.array(fc.nat(), { maxLength: 4 }), async (bytes, cuts) => {
				const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort(
					(a, b) => a - b
				);
				const chunks: Uint8Array[] = [];
				let start = 0;
				for (const cut of [...points, bytes.length]) {
					chunks.push(bytes.slice(start, cut));
					start = cut;
				}
				const want = expectedOfBytes(bytes);
				// The same lines as decoding the whole file, and each invalid line marked, either way.
				expect(want.map(({ line, text }) => ({ line, text }))).toEqual(
					expected(new TextDecoder().decode(bytes))
				);
				expect(await linesOf(new JsonlLineReader(chunks))).toEqual(want);
				expect(await linesOf(new JsonlLineReader(chunks, { decoding: 'text-decoder' }))).toEqual(
					want
				);
			}),
			{ numRuns: 60 }
		);
	});

	it('keeps a CRLF split between two chunks as one line break, and a lone CR at the end in the line', async () => {
		expect(await linesOf(new JsonlLineReader(['1\r', '\n2\r']))).toEqual([
			{ line: 1, text: '1' },
			{ line: 2, text: '2\r' }
		]);
	});

	it('reads text given as a mix of string and byte chunks as the whole text', async () => {
		// The text's own BOM aside (a byte stream drops its first one; a string keeps it), every line
		// is the whole text's, whichever chunks it is cut across and whatever form each chunk has.
		await fc.assert(
			fc.asyncProperty(
				text.filter((source) => !source.startsWith('\ufeff')),
				fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 6 }),
				fc.boolean(),
				async (source, cuts, lastAsBytes) => {
					const characters = [...source];
					const positions = [...new Set(cuts.map(([cut]) => cut % (characters.length + 1)))].sort(
						(left, right) => left - right
					);
					const forms = [...cuts.map(([, asBytes]) => asBytes), lastAsBytes];
					const chunks: (string | Uint8Array)[] = [];
					let start = 0;
					for (const [index, cut] of [...positions, characters.length].entries()) {
						const piece = characters.slice(start, cut).join('');
						chunks.push(forms[index] ? new TextEncoder().encode(piece) : piece);
						start = cut;
					}
					expect(await linesOf(new JsonlLineReader(chunks))).toEqual(expected(source));
				}
			),
			{ numRuns: 1_500 }
		);
		// The cases a review found: a line begun in bytes and ended in a string, and a U+FEFF in
		// bytes after a string chunk, which is text.
		expect(await linesOf(new JsonlLineReader([bytesOf('ab'), 'cd\n']))).toEqual([
			{ line: 1, text: 'abcd' }
		]);
		expect(await linesOf(new JsonlLineReader(['1\n', bytesOf('\ufeff2\n')]))).toEqual([
			{ line: 1, text: '1' },
			{ line: 2, text: '\ufeff2' }
		]);
		expect(await linesOf(new JsonlLineReader(['', bytesOf('\ufeff{"a":1}\n')]))).toEqual([
			{ line: 1, text: '{"a":1}' }
		]);
		expect(await linesOf(new JsonlLineReader(['a', bytesOf('b\r'), '\nc']))).toEqual([
			{ line: 1, text: 'ab' },
			{ line: 2, text: 'c' }
		]);
	});

	it('gives an ASCII line read from bytes its bytes, and no other line', async () => {
		const encoded = new TextEncoder().encode('{"a":1}\r\n{"é":2}\n\n[3]\n[4');
		for (const decoding of ['ascii-chunks', 'text-decoder'] as const) {
			const lines = [];
			const reader = new JsonlLineReader([encoded], { decoding });
			for (let line = await reader.next(); line; line = await reader.next()) lines.push(line);
			expect(lines.map((line) => line.bytes && String.fromCharCode(...line.bytes))).toEqual([
				'{"a":1}',
				null,
				'[3]',
				null // the unfinished last line is glued, and read without its bytes
			]);
		}
		// A malformed byte decodes to one character (U+FFFD), as many characters as bytes: the
		// line is still not ASCII, and has no bytes.
		const malformed = new JsonlLineReader([Uint8Array.of(0x5b, 0xff, 0x5d, 10)], {
			decoding: 'text-decoder'
		});
		expect((await malformed.next())?.bytes).toBeNull();
	});

	it('marks a line whose bytes are not valid UTF-8, and parsing refuses it', async () => {
		// U+FFFD written as EF BF BD reads as the same text as a lone FF byte does.
		const valid = bytesOf('{"a":"\ufffd"}\n');
		const edited = Uint8Array.from([...bytesOf('{"a":"'), 0xff, ...bytesOf('"}\n')]);
		for (const decoding of ['ascii-chunks', 'text-decoder'] as const)
			for (const chunks of [[edited], [...edited].map((byte) => Uint8Array.of(byte))]) {
				const read = await new JsonlLineReader(chunks, { decoding }).next();
				expect(read?.text).toBe('{"a":"\ufffd"}');
				expect(read?.malformed).toBe(true);
				expect(parseJsonlLine(read!)).toEqual({
					line: 1,
					text: '{"a":"\ufffd"}',
					bytes: null,
					error: malformedUtf8Error
				});
				const good = await new JsonlLineReader([valid], { decoding }).next();
				expect(good?.malformed).toBe(false);
				expect(parseJsonlLine(good!)).toMatchObject({ value: { a: '\ufffd' } });
			}
		// A line begun in bytes and finished in text keeps the mark.
		const mixed = await linesOf(new JsonlLineReader([Uint8Array.of(0x5b, 0xff), '"x"]\n']));
		expect(mixed).toEqual([{ line: 1, text: '[\ufffd"x"]', malformed: true }]);
	});

	it('reads whole bytes as the same bytes in chunks', async () => {
		const bytes = new TextEncoder().encode('\ufeff{"a":1}\r\n\n{"b":"é"}\n{"c":3}');
		expect(await linesOf(new JsonlLineReader(bytes))).toEqual(
			await linesOf(new JsonlLineReader([bytes]))
		);
		expect(await linesOf(new JsonlLineReader(bytes))).toEqual([
			{ line: 1, text: '{"a":1}' },
			{ line: 3, text: '{"b":"é"}' },
			{ line: 4, text: '{"c":3}' }
		]);
	});

	it('numbers the lines of a part of a file after the lines before it, where U+FEFF is text', async () => {
		const bytes = new TextEncoder().encode('\ufeff{"a":1}\n\n{"b":2}\n');
		for (const decoding of ['ascii-chunks', 'text-decoder'] as const) {
			const reader = new JsonlLineReader(bytes, { decoding, start: { linesBefore: 41 } });
			expect(await linesOf(reader)).toEqual([
				{ line: 42, text: '\ufeff{"a":1}' },
				{ line: 44, text: '{"b":2}' }
			]);
		}
	});

	it('counts lines for progress', () => {
		expect(countLines('')).toBe(0);
		expect(countLines('a\nb\n')).toBe(2);
		expect(countLines('a\nb')).toBe(2);
	});
});
