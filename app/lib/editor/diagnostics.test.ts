import { describe, expect, it } from 'vitest';
import { diagnosticsFromMarkers, sameDiagnostics } from './diagnostics.js';

const marker = (severity: number, message: string, startLineNumber: number) => ({
	severity,
	message,
	startLineNumber
});

describe('diagnosticsFromMarkers', () => {
	it('keeps errors and warnings, drops hints and infos', () => {
		const result = diagnosticsFromMarkers([
			marker(8, "Type 'string' is not assignable to type 'number'.", 3),
			marker(4, 'Unreachable code detected.', 5),
			marker(2, 'info', 1),
			marker(1, "'x' is declared but its value is never read.", 2)
		]);
		expect(result).toEqual([
			{ severity: 'error', message: "Type 'string' is not assignable to type 'number'.", line: 3 },
			{ severity: 'warning', message: 'Unreachable code detected.', line: 5 }
		]);
	});

	it('orders by line, errors before warnings on the same line', () => {
		const result = diagnosticsFromMarkers([
			marker(4, 'w9', 9),
			marker(4, 'w2', 2),
			marker(8, 'e2', 2),
			marker(8, 'e1', 1)
		]);
		expect(result.map((diagnostic) => diagnostic.message)).toEqual(['e1', 'e2', 'w2', 'w9']);
	});

	it('returns an empty list for no markers, and does not change its input', () => {
		expect(diagnosticsFromMarkers([])).toEqual([]);
		const markers = [marker(4, 'b', 2), marker(8, 'a', 1)];
		diagnosticsFromMarkers(markers);
		expect(markers.map((item) => item.message)).toEqual(['b', 'a']);
	});
});

describe('sameDiagnostics', () => {
	const error = { severity: 'error', message: 'm', line: 1 } as const;
	it('compares severity, line and message in order', () => {
		expect(sameDiagnostics([], [])).toBe(true);
		expect(sameDiagnostics([error], [{ ...error }])).toBe(true);
		expect(sameDiagnostics([error], [{ ...error, line: 2 }])).toBe(false);
		expect(sameDiagnostics([error], [{ ...error, severity: 'warning' }])).toBe(false);
		expect(sameDiagnostics([error], [{ ...error, message: 'n' }])).toBe(false);
		expect(sameDiagnostics([error], [])).toBe(false);
	});
});
