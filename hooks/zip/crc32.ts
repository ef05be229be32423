/** CRC-32 (IEEE 802.3), the checksum every zip entry declares for its unpacked bytes. */
const table = (() => {
	const values = new Int32Array(256);
	for (let index = 0; index < 256; index++) {
		let value = index;
		for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
		values[index] = value;
	}
	return values;
})();

/** The CRC-32 of `bytes`, or of everything before them too when `previous` is the CRC so far. */
export function crc32(bytes: Uint8Array, previous = 0): number {
	let crc = previous ^ -1;
	for (let index = 0; index < bytes.length; index++)
		crc = (table[(crc ^ (bytes[index] as number)) & 0xff] as number) ^ (crc >>> 8);
	return (crc ^ -1) >>> 0;
}
