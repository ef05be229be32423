/**
 * The chunks as one array, allocated once at its final size (readers, deflaters and the zip
 * writer all gather their output in pieces first).
 */
export function concatenateBytes(chunks: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
	let total = 0;
	for (const chunk of chunks) total += chunk.length;
	const bytes = new Uint8Array(total);
	let offset = 0;
	for (const chunk of chunks) {
		bytes.set(chunk, offset);
		offset += chunk.length;
	}
	return bytes;
}
