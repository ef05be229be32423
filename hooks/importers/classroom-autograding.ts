import { assembleScenario, scenarioIdFrom, type ImportResult } from './imported-scenario.js';

/**
 * GitHub Classroom autograding tests (`.github/classroom/autograding.json`: `{"tests": [{name,
 * setup, run, input, output|expected, comparison, timeout, points}]}`, as the education/autograding
 * action and Classroom 50 read them) → a Threadline scenario: one intent per test, whose one
 * acceptance criterion runs the test as a shell command in the offline sandbox, and a rubric with
 * the test's points. Input/output tests become a command that feeds `input` on stdin and compares
 * stdout with the expected text the way the action does (`included`, `exact`, `regex`; trailing
 * newlines ignored). What the sandbox cannot honour (a per-test timeout, network installs in
 * `setup`) is listed, never dropped quietly.
 */

export const classroomLimits = Object.freeze({
	maximumFileBytes: 1024 * 1024,
	/** active_intents.yaml holds at most 100 criteria (criteria-bounds.ts). */
	maximumTests: 100,
	maximumFieldLength: 100_000
});

const comparisons = ['included', 'exact', 'regex'] as const;

/** A shell word in single quotes: the only quoting in which nothing is special. */
function quote(text: string): string {
	return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The action's normalisation: CRLF to LF, trailing newlines dropped. */
function normalizeExpected(text: string): string {
	return text.replace(/\r\n/g, '\n').replace(/\n+$/, '');
}

/**
 * The test as one shell command: `setup` first (as the action runs it), then `run`; with an
 * expected output, stdout is captured (command substitution drops trailing newlines, as the
 * action's comparison does) and compared, printing both on a mismatch.
 */
export function classroomTestCommand(test: {
	setup?: string;
	run: string;
	input?: string;
	expected?: string;
	comparison: (typeof comparisons)[number];
}): string {
	const setup = test.setup?.trim() ? `${test.setup.trim()} && ` : '';
	const expected = normalizeExpected(test.expected ?? '');
	if (expected === '') return `${setup}${test.run}`;
	const feed = test.input ? `printf '%s' ${quote(test.input)} | ` : '';
	const capture = `actual="$(${feed}${test.run}${test.input ? '' : ' < /dev/null'})"`;
	const mismatch = (what: string) =>
		`{ printf '%s\\n%s\\n%s\\n%s\\n' ${quote(`expected output ${what}:`)} ${quote(expected)} 'got:' "$actual"; false; }`;
	switch (test.comparison) {
		case 'exact':
			return `${setup}${capture} && { [ "$actual" = ${quote(expected)} ] || ${mismatch('to be exactly')}; }`;
		case 'regex':
			return `${setup}${capture} && { printf '%s' "$actual" | grep -Eq ${quote(expected)} || ${mismatch('to match')}; }`;
		case 'included':
			return `${setup}${capture} && { case "$actual" in *${quote(expected)}*) true ;; *) ${mismatch('to include')} ;; esac; }`;
	}
}

type TestValue = Record<string, unknown>;

function textField(
	test: TestValue,
	name: string,
	where: string
): string | undefined | { problem: string } {
	const value = test[name];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string') return { problem: `${where}.${name} is not text` };
	if (value.length > classroomLimits.maximumFieldLength)
		return {
			problem: `${where}.${name} is longer than ${classroomLimits.maximumFieldLength} characters`
		};
	return value;
}

export function importClassroomAutograding(
	json: string,
	options: { id?: string; title?: string } = {}
): ImportResult {
	if (json.length > classroomLimits.maximumFileBytes)
		return {
			ok: false,
			problem: `autograding.json is larger than ${classroomLimits.maximumFileBytes / 1024} KiB`
		};
	let document: unknown;
	try {
		document = JSON.parse(json);
	} catch (error) {
		return { ok: false, problem: `autograding.json is not JSON: ${(error as Error).message}` };
	}
	const tests = (document as { tests?: unknown } | null)?.tests;
	if (!Array.isArray(tests) || tests.length === 0)
		return { ok: false, problem: 'autograding.json has no "tests" list' };
	if (tests.length > classroomLimits.maximumTests)
		return {
			ok: false,
			problem: `autograding.json has ${tests.length} tests; at most ${classroomLimits.maximumTests} are imported`
		};
	const notCarried: string[] = [];
	const intents: Record<string, unknown>[] = [];
	const rubric: { intent: string; points: number }[] = [];
	const briefLines: string[] = [];
	const names = new Set<string>();
	for (const key of Object.keys(document as object))
		if (key !== 'tests') notCarried.push(`${key}: not part of the autograding tests`);
	for (const [index, value] of tests.entries()) {
		const where = `tests[${index}]`;
		if (typeof value !== 'object' || value === null || Array.isArray(value))
			return { ok: false, problem: `${where} is not an object` };
		const test = value as TestValue;
		const fields: Record<string, string | undefined> = {};
		for (const name of ['name', 'setup', 'run', 'input', 'output', 'expected', 'comparison']) {
			const read = textField(test, name, where);
			if (typeof read === 'object') return { ok: false, problem: read.problem };
			fields[name] = read;
		}
		const name = fields.name?.trim();
		if (!name) return { ok: false, problem: `${where} has no name` };
		if (names.has(name))
			return { ok: false, problem: `${where}: the name ${JSON.stringify(name)} is used twice` };
		names.add(name);
		const run = fields.run?.trim();
		if (!run) return { ok: false, problem: `${where} (${name}) has no run command` };
		if (
			fields.output !== undefined &&
			fields.expected !== undefined &&
			fields.output !== fields.expected
		)
			return {
				ok: false,
				problem: `${where} (${name}) gives both output and expected, and they differ`
			};
		const expected = fields.expected ?? fields.output;
		const comparison = fields.comparison ?? 'included';
		if (!(comparisons as readonly string[]).includes(comparison))
			return {
				ok: false,
				problem: `${where} (${name}): comparison ${JSON.stringify(comparison)} is not one of ${comparisons.join(', ')}`
			};
		const points = test.points ?? 0;
		if (typeof points !== 'number' || !Number.isFinite(points) || points < 0 || points > 10_000)
			return { ok: false, problem: `${where} (${name}): points must be a number from 0 to 10,000` };
		if (test.timeout !== undefined)
			notCarried.push(
				`${where} (${name}): timeout ${JSON.stringify(test.timeout)} min — each criterion gets threadline check's --timeout (120 s by default)`
			);
		if (
			fields.setup &&
			/\b(?:apt(?:-get)?|pip3?|npm (?:ci|install|i)|yarn|pnpm|brew|curl|wget|sudo)\b/.test(
				fields.setup
			)
		)
			notCarried.push(
				`${where} (${name}): setup ${JSON.stringify(fields.setup)} installs software or uses the network; the offline sandbox has neither, so it is kept but will fail there`
			);
		if (comparison === 'regex' && expected)
			notCarried.push(
				`${where} (${name}): the regex is matched line by line as POSIX ERE (grep -E), not as a JavaScript RegExp over the whole output`
			);
		for (const key of Object.keys(test))
			if (
				![
					'name',
					'setup',
					'run',
					'input',
					'output',
					'expected',
					'comparison',
					'timeout',
					'points'
				].includes(key)
			)
				notCarried.push(`${where} (${name}): ${key} is not an autograding field`);
		const id = `INT-${String(index + 1).padStart(3, '0')}`;
		intents.push({
			id,
			name: name.slice(0, 200),
			status: 'IN_PROGRESS',
			owned_scope: ['**'],
			constraints: [],
			acceptance_criteria: [
				{
					description: name,
					run: classroomTestCommand({
						setup: fields.setup,
						run,
						input: fields.input,
						expected,
						comparison: comparison as (typeof comparisons)[number]
					})
				}
			]
		});
		rubric.push({ intent: id, points });
		briefLines.push(`| ${id} | ${name.replace(/\|/g, '\\|').replace(/\n/g, ' ')} | ${points} |`);
	}
	const title = options.title?.trim() || 'Classroom autograding';
	const manifest = {
		id: scenarioIdFrom(options.id ?? title, 'classroom-assignment'),
		title: title.slice(0, 120),
		summary: `${tests.length} autograding test${tests.length === 1 ? '' : 's'} imported from GitHub Classroom, run as acceptance criteria in the offline sandbox.`,
		brief: [
			`# ${title}`,
			'',
			'Each GitHub Classroom test is an intent whose acceptance criterion runs it. Complete an intent to run its test; `threadline check` re-runs them all, and `threadline report --rubric` scores them.',
			'',
			'| intent | test | points |',
			'| ------ | ---- | ------ |',
			...briefLines,
			''
		].join('\n'),
		rubric: { criteria: rubric, partial_credit: false }
	};
	notCarried.push(
		'the assignment repository itself: copy its starting files into files/ (autograding.json names only the tests)'
	);
	return assembleScenario({ manifest, files: new Map(), intents, notCarried });
}
