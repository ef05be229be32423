/**
 * Reads what `node --test` printed (Node 20's TAP reporter, and the offline runtime's copy of
 * it): the summary counts, and the failed tests with their first error line, for the corpus
 * table. Pure; no Node built-ins.
 */

export interface TapSummary {
	tests: number;
	suites: number;
	pass: number;
	fail: number;
	cancelled: number;
	skipped: number;
	todo: number;
	/** False when the output had no summary (the run was cut short). */
	complete: boolean;
	/** Failed leaf tests: `file › name` and the first line of the error. */
	failures: { name: string; error: string }[];
}

type Counter = 'tests' | 'suites' | 'pass' | 'fail' | 'cancelled' | 'skipped' | 'todo';

export function parseTapSummary(output: string): TapSummary {
	const summary: TapSummary = {
		tests: 0,
		suites: 0,
		pass: 0,
		fail: 0,
		cancelled: 0,
		skipped: 0,
		todo: 0,
		complete: false,
		failures: []
	};
	const lines = output.split('\n');
	for (const line of lines) {
		const match = /^# (tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/.exec(line);
		if (match) {
			summary[match[1] as Counter] = Number(match[2]);
			if (match[1] === 'todo') summary.complete = true;
		}
	}
	summary.failures = failedTests(lines);
	return summary;
}

/** `not ok` lines whose YAML block says a test's own code failed (not "subtests failed"). */
function failedTests(lines: string[]): { name: string; error: string }[] {
	const failures: { name: string; error: string }[] = [];
	for (let index = 0; index < lines.length; index += 1) {
		const heading = /^(\s*)not ok \d+ - (.*?)(?: # (?:TODO|SKIP).*)?$/.exec(lines[index] ?? '');
		if (!heading || (lines[index] ?? '').includes('# TODO')) continue;
		const pad = heading[1] ?? '';
		let error = '';
		let failureType = '';
		for (let inner = index + 1; inner < lines.length; inner += 1) {
			const line = lines[inner] ?? '';
			if (line === `${pad}  ...`) break;
			const type = /^\s+failureType: '?([^']*)'?$/.exec(line);
			if (type) failureType = type[1] ?? '';
			const inline = /^\s+error: (?!\|)'?(.*?)'?$/.exec(line);
			if (inline && !error) error = inline[1] ?? '';
			if (/^\s+error: \|-?$/.test(line) && !error) error = (lines[inner + 1] ?? '').trim();
		}
		if (failureType === 'subtestsFailed') continue;
		failures.push({ name: heading[2] ?? '', error: error.slice(0, 200) });
	}
	return failures;
}
