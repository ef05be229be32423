/**
 * Realm-independent check: bytes made in another realm (a test DOM, an iframe, Node's Buffer)
 * fail `instanceof Uint8Array` but are still bytes.
 */
export function isUint8Array(value: unknown): value is Uint8Array {
	return Object.prototype.toString.call(value) === '[object Uint8Array]';
}
