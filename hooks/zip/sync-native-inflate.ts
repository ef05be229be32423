import { ZipReadError, type BoundedInflate } from './read-zip.js';

/**
 * A platform's synchronous raw-deflate inflater that stops at `maximumOutput` bytes: the unpacked
 * bytes, or 'too-large' when there are more. The CLI passes node:zlib's `inflateRawSync` with its
 * `maxOutputLength` (bin/cli/read-export-source.ts).
 */
export type RawInflateSync = (
	packed: Uint8Array,
	maximumOutput: number
) => Uint8Array | 'too-large';

/**
 * A bounded inflater for readZipWith over a native synchronous one: the same checks and errors as
 * inflateBounded (fflate), and about twice as fast where the platform has one. Measured in Node on
 * an export of 100k events (a 16.8 MB zip unpacking to 91 MB): fflate 685–880 ms, node:zlib
 * 400–440 ms (checksums included), DecompressionStream 725–820 ms. One byte more than declared is
 * asked for, so an entry that lies about its size stops there, as inflateBounded stops.
 */
export function boundedInflateWith(inflateRaw: RawInflateSync): BoundedInflate {
	return async (packed, declaredSize, quotedName) => {
		let output: Uint8Array | 'too-large';
		try {
			output = inflateRaw(packed, declaredSize + 1);
		} catch (error) {
			throw new ZipReadError(
				`entry ${quotedName} cannot be inflated (${error instanceof Error ? error.message : String(error)})`
			);
		}
		if (output === 'too-large' || output.length > declaredSize)
			throw new ZipReadError(
				`entry ${quotedName} unpacks to more than its declared ${declaredSize} bytes (a lying header?)`
			);
		return output;
	};
}
