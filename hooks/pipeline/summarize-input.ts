/** Large strings (file contents) are summarised in the audit log: the trace records carry their hashes. */
const maximumStringLength = 240;

export function summarizeInput(input: unknown): unknown {
	if (typeof input === 'string') {
		return input.length > maximumStringLength
			? `${input.slice(0, maximumStringLength)}… (${input.length} characters)`
			: input;
	}
	if (Array.isArray(input)) return input.map(summarizeInput);
	if (typeof input === 'object' && input !== null) {
		return Object.fromEntries(
			Object.entries(input).map(([key, value]) => [key, summarizeInput(value)])
		);
	}
	return input;
}
