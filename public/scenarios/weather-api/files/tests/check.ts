/** Tiny assertions, so the tests need nothing but TypeScript. */
export function check(condition: unknown, message: string): asserts condition {
	if (!condition) throw new Error(message);
}

export function checkEqual<Value>(actual: Value, expected: Value, message: string): void {
	if (!Object.is(actual, expected)) {
		throw new Error(`${message}: expected ${String(expected)}, got ${String(actual)}`);
	}
}
