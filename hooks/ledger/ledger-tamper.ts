/**
 * Tampering with exported jsonl bytes, for the verify tests that compare two ways of verifying
 * (line decodings, one pass and parts): byte flips, a line dropped, swapped or repeated, and the
 * line-break edits a reader must count right (a CRLF, an empty line), and a U+FEFF at a line's
 * start (the file's BOM at its first line, text anywhere else). Only tests import this file.
 */
import fc from 'fast-check';

export type Tamper =
	| { kind: 'flips'; flips: [number, number][] }
	| {
			kind: 'drop' | 'swap' | 'repeat' | 'crlf' | 'blank' | 'bom';
			first: number;
			second: number;
	  };

export const tamperArbitrary: fc.Arbitrary<Tamper> = fc.oneof(
	fc.record({
		kind: fc.constant('flips' as const),
		flips: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), {
			minLength: 1,
			maxLength: 3
		})
	}),
	fc.record({
		kind: fc.constantFrom(
			'drop' as const,
			'swap' as const,
			'repeat' as const,
			'crlf' as const,
			'blank' as const,
			'bom' as const
		),
		first: fc.nat(),
		second: fc.nat()
	})
);

/** The bytes with the tamper applied (a copy; the bytes given are not changed). */
export function tampered(bytes: Uint8Array, tamper: Tamper): Uint8Array {
	if (tamper.kind === 'flips') {
		const copy = bytes.slice();
		for (const [position, mask] of tamper.flips) {
			const at = position % copy.length;
			copy[at] = copy[at]! ^ mask;
		}
		return copy;
	}
	const decoder = new TextDecoder();
	const lines = decoder.decode(bytes).split('\n').filter(Boolean);
	const first = tamper.first % lines.length;
	const second = tamper.second % lines.length;
	if (tamper.kind === 'drop') lines.splice(first, 1);
	else if (tamper.kind === 'repeat') lines.splice(first, 0, lines[first]!);
	else if (tamper.kind === 'crlf') lines[first] = `${lines[first]}\r`;
	else if (tamper.kind === 'blank') lines.splice(first, 0, '');
	// At the first line one time in three: a BOM there is the file's, which a reader drops.
	else if (tamper.kind === 'bom')
		lines[first % 3 === 0 ? 0 : first] = `\ufeff${lines[first % 3 === 0 ? 0 : first]}`;
	else [lines[first], lines[second]] = [lines[second]!, lines[first]!];
	return new TextEncoder().encode(lines.map((line) => `${line}\n`).join(''));
}
