/**
 * The problems Monaco reports for a file, reduced to what the IDE shows and tests assert on.
 * Hints and infos (unused variables greyed out, suggestions) are left out: they are not problems.
 */

export interface EditorDiagnostic {
	severity: 'error' | 'warning';
	message: string;
	/** 1-based, as the editor shows it. */
	line: number;
}

/** The fields of Monaco's `editor.IMarker` we read. */
export interface MarkerLike {
	severity: number;
	message: string;
	startLineNumber: number;
}

// Monaco's MarkerSeverity values (Hint 1, Info 2, Warning 4, Error 8). Kept as numbers so this
// module does not load Monaco.
const markerSeverityError = 8;
const markerSeverityWarning = 4;

export function diagnosticsFromMarkers(markers: readonly MarkerLike[]): EditorDiagnostic[] {
	const diagnostics: EditorDiagnostic[] = [];
	for (const marker of markers) {
		const severity =
			marker.severity === markerSeverityError
				? 'error'
				: marker.severity === markerSeverityWarning
					? 'warning'
					: null;
		if (severity) {
			diagnostics.push({ severity, message: marker.message, line: marker.startLineNumber });
		}
	}
	return diagnostics.sort(
		(first, second) =>
			first.line - second.line ||
			(first.severity === second.severity ? 0 : first.severity === 'error' ? -1 : 1)
	);
}

/** Whether two lists say the same thing, so unchanged markers are not reported again. */
export function sameDiagnostics(
	first: readonly EditorDiagnostic[],
	second: readonly EditorDiagnostic[]
): boolean {
	return (
		first.length === second.length &&
		first.every(
			(diagnostic, index) =>
				diagnostic.severity === second[index]?.severity &&
				diagnostic.line === second[index]?.line &&
				diagnostic.message === second[index]?.message
		)
	);
}
