import { isMap, isSeq, parseDocument, stringify } from 'yaml';
import { zipEntries } from '../../../hooks/ledger/read-export.js';
import { hookPolicyPath } from '../../../hooks/policies/hook-policy-schema.js';
import { activeIntentsPath } from '../../../hooks/pipeline/governance-state.js';
import { governancePathKind } from '../../../hooks/paths/protected-paths.js';
import type { ScenarioProblem } from '../../../hooks/scenarios/scenario-problem.js';
import { scenarioManifestSchema } from '../../../hooks/scenarios/scenario-schema.js';
import { readScenarioZip } from '../../../hooks/scenarios/scenario-zip.js';
import { readYamlWithPositions } from '../../../hooks/yaml/yaml-position.js';

/** What the author edits about a scenario besides its files. */
export interface ScenarioDraft {
	id: string;
	title: string;
	summary: string;
	brief: string;
	/** One prompt per entry. */
	suggestedPrompts: string[];
	approvalPolicy: 'always' | 'destructive' | 'never';
	sandboxNeeds: 'any' | 'webcontainer';
	sandboxNote: string;
	/** `git.commit_on_complete`: complete_intent commits the working tree. */
	commitOnComplete: boolean;
	/**
	 * The grading rubric as YAML (the mapping under `rubric:` in scenario.yaml, see
	 * hooks/report/rubric.ts); empty for none.
	 */
	rubric: string;
	/** The numbered steps as YAML (the list under `steps:`, see hooks/scenarios/scenario-steps.ts); empty for none. */
	steps: string;
}

/** A problem of one draft field (by its manifest key) or of one file (with line:column). */
export interface AuthoringProblem {
	field: string;
	message: string;
	/** Where in the field's own YAML (rubric, steps), when the problem has a place there. */
	line?: number;
	column?: number;
}

/**
 * Only the instructor-written governance files of `.orchestration/` belong to a scenario; the
 * ledger, the trace and derived notes are the learner's, made fresh in every workspace.
 */
const scenarioGovernanceFiles = new Set([activeIntentsPath, hookPolicyPath]);

export function scenarioFilesOf(files: Iterable<[string, Uint8Array]>): Map<string, Uint8Array> {
	const kept = new Map<string, Uint8Array>();
	for (const [path, bytes] of files) {
		const kind = governancePathKind(path);
		if (kind === 'orchestration' && !scenarioGovernanceFiles.has(path)) continue;
		if (kind === 'git' || path.startsWith('node_modules/')) continue;
		kept.set(path, bytes);
	}
	return kept;
}

/**
 * A YAML field of the draft (the rubric's mapping, the steps' list) read as YAML: its value, or
 * where and why it does not parse, as `<field>:<line>:<column>`.
 */
function readYamlField(
	text: string,
	field: 'rubric' | 'steps'
): { value: unknown } | { problems: AuthoringProblem[] } | null {
	if (!text.trim()) return null;
	// Every error at once, each at its own line:column (prettyErrors computes linePos; without it
	// every error was placed at 1:1).
	const document = parseDocument(text, { prettyErrors: true });
	if (document.errors.length > 0) {
		return {
			problems: document.errors.map((error) => {
				const [line, column] = error.linePos?.[0]
					? [error.linePos[0].line, error.linePos[0].col]
					: [1, 1];
				return {
					field: `${field}:${line}:${column}`,
					message: error.message.split('\n')[0] ?? 'not valid YAML',
					line,
					column
				};
			})
		};
	}
	if (field === 'rubric' && !isMap(document.contents))
		return {
			problems: [
				{
					field,
					message: 'the rubric is a mapping: criteria, partial_credit, penalties, minimum'
				}
			]
		};
	if (field === 'steps' && !isSeq(document.contents))
		return {
			problems: [
				{
					field,
					message: 'steps is a list: "- title: …" with brief, intents and an optional solution'
				}
			]
		};
	return { value: document.toJS() as unknown };
}

export function manifestOf(draft: ScenarioDraft): Record<string, unknown> {
	const sandbox: Record<string, unknown> = { needs: draft.sandboxNeeds };
	if (draft.sandboxNote.trim()) sandbox.note = draft.sandboxNote.trim();
	const rubric = readYamlField(draft.rubric, 'rubric');
	const steps = readYamlField(draft.steps, 'steps');
	return {
		id: draft.id,
		title: draft.title,
		summary: draft.summary,
		approval_policy: draft.approvalPolicy,
		sandbox,
		...(draft.commitOnComplete ? { git: { commit_on_complete: true } } : {}),
		suggested_prompts: draft.suggestedPrompts.map((prompt) => prompt.trim()).filter(Boolean),
		brief: draft.brief,
		...(rubric && 'value' in rubric ? { rubric: rubric.value } : {}),
		...(steps && 'value' in steps ? { steps: steps.value } : {})
	};
}

/**
 * Every problem of the draft at once, by field, as the manifest schema words them: YAML errors of
 * the rubric and the steps at their line:column, and the schema's problems of every other field
 * alongside (a broken rubric no longer hides a missing title). A schema problem inside the rubric
 * or the steps carries its line:column in that field's YAML too.
 */
export function draftProblems(draft: ScenarioDraft): AuthoringProblem[] {
	const yamlProblems = [
		readYamlField(draft.rubric, 'rubric'),
		readYamlField(draft.steps, 'steps')
	].flatMap((read) => (read && 'problems' in read ? read.problems : []));
	const checked = scenarioManifestSchema.safeParse(manifestOf(draft));
	if (checked.success) return yamlProblems;
	const texts: Record<string, string> = { rubric: draft.rubric, steps: draft.steps };
	const schemaProblems = checked.error.issues.map((issue): AuthoringProblem => {
		const field = issue.path.map(String).join('.') || 'scenario';
		const [root, ...inside] = issue.path as (string | number)[];
		const text = typeof root === 'string' ? texts[root] : undefined;
		// An unknown key is placed at the key, as the validator does.
		const unknown = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
		if (text === undefined || (inside.length === 0 && unknown === undefined))
			return { field, message: issue.message };
		const read = readYamlWithPositions(text);
		if (!read.ok) return { field, message: issue.message };
		const at =
			unknown === undefined ? read.yaml.valueAt(inside) : read.yaml.keyAt([...inside, unknown]);
		return { field, message: issue.message, line: at.line, column: at.column };
	});
	return [...yamlProblems, ...schemaProblems];
}

/**
 * The scenario as a zip of its folder (`<id>/scenario.yaml`, `<id>/files/**`, `<id>/demo.yaml`):
 * what `public/scenarios/` holds, `threadline validate` checks and `/?scenario=<url>` loads. It is
 * read back with the same reader remote zips go through, so what is offered for download is
 * known to load.
 */
export function exportScenarioZip(options: {
	draft: ScenarioDraft;
	files: Iterable<[string, Uint8Array]>;
	demo?: string | null;
}):
	| {
			ok: true;
			zip: Uint8Array;
			fileName: string;
			/** Why the workspace's demo was left out (it is another scenario's), or absent. */
			demoLeftOut?: string[];
	  }
	| { ok: false; problems: AuthoringProblem[] } {
	const fieldProblems = draftProblems(options.draft);
	if (fieldProblems.length > 0) return { ok: false, problems: fieldProblems };
	const folder = options.draft.id;
	const encoder = new TextEncoder();
	const entries = new Map<string, Uint8Array>();
	entries.set(
		`${folder}/scenario.yaml`,
		encoder.encode(stringify(manifestOf(options.draft), { lineWidth: 100 }))
	);
	for (const [path, bytes] of scenarioFilesOf(options.files))
		entries.set(`${folder}/files/${path}`, bytes);
	if (options.demo) entries.set(`${folder}/demo.yaml`, encoder.encode(options.demo));
	let zip = zipEntries(entries);
	let readBack = readScenarioZip(zip);
	// A demo that names intents these files do not have is another scenario's (a blank scenario
	// started in a built-in's workspace): it is left out, and the author told why, rather than
	// shipping a demo that fails on "Run the demo.".
	const demoEntry = `${folder}/demo.yaml`;
	if (
		!readBack.bundle &&
		entries.has(demoEntry) &&
		readBack.problems.length > 0 &&
		readBack.problems.every((problem) => problem.file === 'demo.yaml')
	) {
		const demoLeftOut = readBack.problems.map(
			(problem) => `${problemOf(problem).field} ${problem.message}`
		);
		entries.delete(demoEntry);
		zip = zipEntries(entries);
		readBack = readScenarioZip(zip);
		if (readBack.bundle) return { ok: true, zip, fileName: `${folder}.zip`, demoLeftOut };
	}
	if (!readBack.bundle) return { ok: false, problems: readBack.problems.map(problemOf) };
	return { ok: true, zip, fileName: `${folder}.zip` };
}

function problemOf(problem: ScenarioProblem): AuthoringProblem {
	const where = problem.line ? `:${problem.line}:${problem.column ?? 1}` : '';
	return { field: `${problem.file}${where}`, message: problem.message };
}

/** "Edit scenario" starts from the current manifest; "New scenario" from a blank one. */
export function draftFromManifest(
	manifest: {
		id: string;
		title: string;
		summary: string;
		brief: string;
		suggested_prompts: string[];
		approval_policy: ScenarioDraft['approvalPolicy'];
		sandbox: { needs: ScenarioDraft['sandboxNeeds']; note?: string };
		git?: { commit_on_complete: boolean };
		rubric?: unknown;
		steps?: unknown;
	} | null
): ScenarioDraft {
	if (!manifest) {
		return {
			id: 'my-scenario',
			title: 'My scenario',
			summary: 'What the learner does, in one sentence.',
			brief: '# My scenario\n\nWhat to try, and what the hooks should block.\n',
			suggestedPrompts: [],
			approvalPolicy: 'destructive',
			sandboxNeeds: 'any',
			sandboxNote: '',
			commitOnComplete: false,
			rubric: '',
			steps: ''
		};
	}
	return {
		id: manifest.id,
		title: manifest.title,
		summary: manifest.summary,
		brief: manifest.brief,
		suggestedPrompts: [...manifest.suggested_prompts],
		approvalPolicy: manifest.approval_policy,
		sandboxNeeds: manifest.sandbox.needs,
		sandboxNote: manifest.sandbox.note ?? '',
		commitOnComplete: manifest.git?.commit_on_complete === true,
		rubric: manifest.rubric === undefined ? '' : stringify(manifest.rubric, { lineWidth: 100 }),
		steps: manifest.steps === undefined ? '' : stringify(manifest.steps, { lineWidth: 100 })
	};
}
