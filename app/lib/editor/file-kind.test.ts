import { describe, expect, it } from 'vitest';
import { defaultFileKindLimits, fileKind, formatSize } from './file-kind.js';

const encoder = new TextEncoder();

describe('fileKind', () => {
	it('opens UTF-8 text as editable text', () => {
		const result = fileKind(encoder.encode('const greeting = "héllo, 世界";\n'));
		expect(result).toEqual({
			kind: 'text',
			text: 'const greeting = "héllo, 世界";\n',
			size: 35,
			readOnlyReason: null
		});
	});

	it('opens an empty file as editable text', () => {
		expect(fileKind(new Uint8Array())).toEqual({
			kind: 'text',
			text: '',
			size: 0,
			readOnlyReason: null
		});
	});

	it('keeps a byte order mark so saving gives back the same bytes', () => {
		const result = fileKind(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]));
		expect(result.kind === 'text' && result.text).toBe('\ufeffa');
	});

	it('reports a file with a NUL byte as binary', () => {
		const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]);
		const result = fileKind(png);
		expect(result.kind).toBe('binary');
		expect(result).toMatchObject({ size: 10, reason: expect.stringContaining('Download it') });
	});

	it('reports invalid UTF-8 without NUL bytes as binary', () => {
		// Latin-1 "café": 0xE9 alone is not valid UTF-8.
		expect(fileKind(new Uint8Array([0x63, 0x61, 0x66, 0xe9])).kind).toBe('binary');
		// A truncated multi-byte sequence at the end.
		expect(fileKind(new Uint8Array([0x61, 0xe4, 0xb8])).kind).toBe('binary');
	});

	it('opens text above the editable limit read-only, with the 2 MB notice by default', () => {
		const size = defaultFileKindLimits.maximumEditableBytes + 1;
		const result = fileKind(new Uint8Array(size).fill(0x61));
		expect(result.kind).toBe('text');
		expect(result).toMatchObject({
			size,
			readOnlyReason: 'This file is larger than 2 MB: it is shown read-only.'
		});
	});

	it('keeps a file of exactly the editable limit editable', () => {
		const size = defaultFileKindLimits.maximumEditableBytes;
		const result = fileKind(new Uint8Array(size).fill(0x61));
		expect(result).toMatchObject({ kind: 'text', readOnlyReason: null });
	});

	it('does not open text above the viewable limit, and says how to get it', () => {
		const limits = { maximumEditableBytes: 4, maximumViewableBytes: 8 };
		const result = fileKind(encoder.encode('123456789'), limits);
		expect(result).toEqual({
			kind: 'too-large',
			size: 9,
			reason:
				'This file is 9 bytes, larger than 8 bytes: it is not opened in the editor. Download it to read it.'
		});
	});

	it('still reports a huge binary file as binary, not merely as too large', () => {
		const limits = { maximumEditableBytes: 4, maximumViewableBytes: 8 };
		expect(fileKind(new Uint8Array([1, 2, 0, 4, 5, 6, 7, 8, 9]), limits).kind).toBe('binary');
	});

	it('decides by bytes, not characters', () => {
		const limits = { maximumEditableBytes: 4, maximumViewableBytes: 100 };
		// Two characters, six bytes.
		const result = fileKind(encoder.encode('世界'), limits);
		expect(result).toMatchObject({ kind: 'text', size: 6 });
		expect(result.kind === 'text' && result.readOnlyReason).toBe(
			'This file is larger than 4 bytes: it is shown read-only.'
		);
	});

	it('rejects input that is not bytes, and limits that contradict each other', () => {
		expect(() => fileKind('text' as unknown as Uint8Array)).toThrow(TypeError);
		expect(() =>
			fileKind(new Uint8Array(), { maximumEditableBytes: 10, maximumViewableBytes: 5 })
		).toThrow(/maximumEditableBytes ≤ maximumViewableBytes/);
		expect(() =>
			fileKind(new Uint8Array(), { maximumEditableBytes: Number.NaN, maximumViewableBytes: 5 })
		).toThrow(RangeError);
	});
});

describe('formatSize', () => {
	it.each([
		[0, '0 bytes'],
		[1023, '1023 bytes'],
		[1024, '1 KB'],
		[1536, '1.5 KB'],
		[2 * 1024 * 1024, '2 MB'],
		[2.5 * 1024 * 1024, '2.5 MB'],
		[20 * 1024 * 1024, '20 MB']
	])('%d bytes reads as %s', (bytes, text) => {
		expect(formatSize(bytes)).toBe(text);
	});
});
