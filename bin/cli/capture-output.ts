/**
 * Stands in for the CLI's stdout and stderr in tests: `output` goes to `main`, and each text it
 * writes is kept, in order, in `out` or `err`.
 */
export function captureOutput(): {
	out: string[];
	err: string[];
	output: { out: (text: string) => void; err: (text: string) => void };
} {
	const out: string[] = [];
	const err: string[] = [];
	return {
		out,
		err,
		output: { out: (text: string) => out.push(text), err: (text: string) => err.push(text) }
	};
}
