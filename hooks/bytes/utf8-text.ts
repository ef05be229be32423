/**
 * UTF-8 bytes to text in plain JavaScript, exactly as `new TextDecoder('utf-8', { ignoreBOM: true })`
 * decodes them (not fatal): the WHATWG Encoding Standard's UTF-8 decoder, where every maximal
 * invalid subpart becomes one U+FFFD and a byte order mark stays a U+FEFF. Chromium's
 * TextDecoder costs about 18 µs a call here: for the bench's 15k non-ASCII audit lines (10 MB)
 * that was 270 ms of a 2 s browser verify; this does them in a fraction of it. It also says
 * whether the bytes were well-formed (a fatal TextDecoder would have refused them). Checked
 * against TextDecoder on random valid and invalid bytes in utf8-text.test.ts.
 */

/** Code units are written here, then made a string a piece at a time (see pieceLength). */
let codeUnits = new Uint16Array(1 << 12);
/** Inputs up to this long reuse codeUnits; a longer one gets an array of its own. */
const reusedLimit = 1 << 20;

/**
 * String.fromCharCode.apply passes the code units as the call's arguments, and engines cap how
 * many a call may take (JavaScriptCore at 65,536).
 */
const pieceLength = 8_192;

const replacement = 0xfffd;

/** A UTF-8 decoding: the text, and whether any bytes were not well-formed UTF-8. */
export interface Utf8Decoded {
	text: string;
	/** True when some bytes were invalid (each maximal invalid subpart became one U+FFFD). */
	malformed: boolean;
}

export function decodeUtf8(bytes: Uint8Array): Utf8Decoded {
	const length = bytes.length;
	// At most one code unit a byte: a 2-, 3- or 4-byte sequence gives 1, 1 or 2.
	if (codeUnits.length < length && length <= reusedLimit)
		codeUnits = new Uint16Array(Math.min(reusedLimit, length * 2));
	const units = length <= reusedLimit ? codeUnits : new Uint16Array(length);
	let count = 0;
	let index = 0;
	let malformed = false;
	while (index < length) {
		const first = bytes[index]!;
		if (first < 0x80) {
			units[count++] = first;
			index++;
			continue;
		}
		let needed: number;
		let codePoint: number;
		let lower = 0x80;
		let upper = 0xbf;
		if (first >= 0xc2 && first <= 0xdf) {
			needed = 1;
			codePoint = first & 0x1f;
		} else if (first >= 0xe0 && first <= 0xef) {
			if (first === 0xe0) lower = 0xa0;
			if (first === 0xed) upper = 0x9f;
			needed = 2;
			codePoint = first & 0x0f;
		} else if (first >= 0xf0 && first <= 0xf4) {
			if (first === 0xf0) lower = 0x90;
			if (first === 0xf4) upper = 0x8f;
			needed = 3;
			codePoint = first & 0x07;
		} else {
			units[count++] = replacement;
			malformed = true;
			index++;
			continue;
		}
		index++;
		let seen = 0;
		while (seen < needed) {
			const next = index < length ? bytes[index]! : -1;
			// Only the first continuation byte has narrower bounds (no overlong forms, no
			// surrogates, nothing past U+10FFFF).
			if (next < lower || next > upper) break;
			lower = 0x80;
			upper = 0xbf;
			codePoint = (codePoint << 6) | (next & 0x3f);
			seen++;
			index++;
		}
		if (seen < needed) {
			// The bytes so far are one maximal invalid subpart; the byte that broke it (or the
			// end) is read afresh.
			units[count++] = replacement;
			malformed = true;
			continue;
		}
		if (codePoint < 0x10000) units[count++] = codePoint;
		else {
			codePoint -= 0x10000;
			units[count++] = 0xd800 | (codePoint >> 10);
			units[count++] = 0xdc00 | (codePoint & 0x3ff);
		}
	}
	if (count <= pieceLength)
		return {
			text: String.fromCharCode.apply(null, units.subarray(0, count) as unknown as number[]),
			malformed
		};
	let text = '';
	for (let start = 0; start < count; start += pieceLength)
		text += String.fromCharCode.apply(
			null,
			units.subarray(start, Math.min(count, start + pieceLength)) as unknown as number[]
		);
	return { text, malformed };
}
