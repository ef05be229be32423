/**
 * One thing wrong with a scenario, named by the file the instructor has to open (relative to the
 * scenario folder: `scenario.yaml`, `demo.yaml`, `files/…`) and, when known, where in it.
 */
export interface ScenarioProblem {
	file: string;
	line?: number;
	column?: number;
	message: string;
	/** The scenario is over a size limit (files, bytes, path length): "too large", not "wrong". */
	exceedsLimit?: boolean;
}

/** `file:line:column message`, the format editors and CI annotate; `file: message` without a place. */
export function formatScenarioProblem(problem: ScenarioProblem, folder?: string): string {
	const file = folder ? `${folder.replace(/\/+$/, '')}/${problem.file}` : problem.file;
	if (problem.line === undefined) return `${file}: ${problem.message}`;
	return `${file}:${problem.line}:${problem.column ?? 1} ${problem.message}`;
}
