/**
 * The tool input as the audit log keeps it: large strings (file contents) are shortened — the
 * trace records carry their hashes — and anything JSON cannot hold (Infinity, NaN, bigint,
 * functions, cycles) becomes a descriptive string, so a malformed call can never break the ledger.
 */
const maximumStringLength = 240;
const maximumDepth = 8;

export function summarizeInput(input: unknown, depth = 0, seen = new Set<object>()): unknown {
	if (typeof input === 'string') {
		return input.length > maximumStringLength
			? `${input.slice(0, maximumStringLength)}… (${input.length} characters)`
			: input;
	}
	if (typeof input === 'number') return Number.isFinite(input) ? input : String(input);
	if (typeof input === 'boolean' || input === null) return input;
	if (input === undefined) return null;
	if (typeof input !== 'object') return `[${typeof input}]`;
	if (seen.has(input)) return '[circular]';
	if (depth >= maximumDepth) return '[nested too deeply]';
	seen.add(input);
	try {
		if (Array.isArray(input)) return input.map((item) => summarizeInput(item, depth + 1, seen));
		return Object.fromEntries(
			Object.entries(input).map(([key, value]) => [key, summarizeInput(value, depth + 1, seen)])
		);
	} finally {
		seen.delete(input);
	}
}
