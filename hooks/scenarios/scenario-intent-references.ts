import { parseIntents } from '../intents/parse-intents.js';
import { activeIntentsPath } from '../pipeline/governance-state.js';
import { parseReplayScript } from '../replay/replay-script.js';
import { readYamlWithPositions, type YamlPathSegment } from '../yaml/yaml-position.js';
import type { ScenarioProblem } from './scenario-problem.js';
import type { ScenarioBundle, ScenarioFile, ScenarioManifest } from './scenario-schema.js';
import { scenarioFileText } from './scenario-file-encoding.js';

const manifestFile = 'scenario.yaml';
const demoFile = 'demo.yaml';

/**
 * Every intent id a scenario names outside its intents file — a step's `intents`, a rubric's
 * `criteria[].intent`, a demo call's `intent_id` — must be an intent of
 * `.orchestration/active_intents.yaml`. A name that is not there asks for criteria nobody can
 * run (steps), scores points nobody can earn (rubric) or plays a demo that fails on its first
 * call (a blank scenario that kept another scenario's demo). Only a demo call that expects
 * `intent_not_found` (or `invalid_input`) may name a missing intent: it shows that refusal.
 *
 * `manifestText` and `demoText` (when given) place each problem at its line:column.
 */
export function scenarioIntentReferenceProblems(input: {
	manifest: ScenarioManifest;
	files: Readonly<Record<string, ScenarioFile>>;
	demo: ScenarioBundle['demo'];
	manifestText?: string | null;
}): ScenarioProblem[] {
	const intentsFile = input.files[activeIntentsPath];
	const intentsText = intentsFile ? scenarioFileText(intentsFile) : null;
	const parsed = intentsText === null ? null : parseIntents(intentsText);
	// An unreadable intents file is reported on its own; naming every reference again is noise.
	if (intentsFile && !parsed?.ok) return [];
	const known = new Set(parsed?.ok ? parsed.document.intents.map((intent) => intent.id) : []);
	const knownText = [...known].join(', ') || 'none';
	const notThere = (id: string) =>
		`"${id}", which is not an intent in ${activeIntentsPath} (known: ${knownText})`;

	const manifestFound: { path: YamlPathSegment[]; message: string }[] = [];
	input.manifest.steps?.forEach((step, stepIndex) => {
		step.intents.forEach((id, index) => {
			if (!known.has(id))
				manifestFound.push({
					path: ['steps', stepIndex, 'intents', index],
					message: `steps[${stepIndex}].intents names ${notThere(id)}`
				});
		});
	});
	input.manifest.rubric?.criteria.forEach((criterion, index) => {
		if (!known.has(criterion.intent))
			manifestFound.push({
				path: ['rubric', 'criteria', index, 'intent'],
				message: `rubric.criteria[${index}].intent names ${notThere(criterion.intent)}`
			});
	});
	input.manifest.rubric?.steps?.forEach((item, index) => {
		const count = input.manifest.steps?.length ?? 0;
		if (item.step < 1 || item.step > count)
			manifestFound.push({
				path: ['rubric', 'steps', index, 'step'],
				message: `rubric.steps[${index}].step is ${item.step}, but the scenario has ${count === 0 ? 'no steps' : `steps 1 to ${count}`}`
			});
	});

	const problems: ScenarioProblem[] = [
		...placed(manifestFile, input.manifestText ?? null, manifestFound)
	];
	if (input.demo !== null) {
		const script = parseReplayScript(input.demo);
		// A demo that does not parse is reported by checkDemoScript.
		if (script.ok) {
			const demoFound: { path: YamlPathSegment[]; message: string }[] = [];
			script.script.steps.forEach((step, index) => {
				if (!('call' in step)) return;
				// Only a call that expects the intent to be missing may name one that is.
				if (step.expect === 'intent_not_found' || step.expect === 'invalid_input') return;
				const id = step.input['intent_id'];
				if (typeof id === 'string' && !known.has(id))
					demoFound.push({
						path: ['steps', index, 'input', 'intent_id'],
						message: `step ${index + 1} (${step.call}) names ${notThere(id)}; the demo would fail there`
					});
			});
			problems.push(...placed(demoFile, input.demo, demoFound));
		}
	}
	return problems;
}

function placed(
	file: string,
	text: string | null,
	found: { path: YamlPathSegment[]; message: string }[]
): ScenarioProblem[] {
	if (found.length === 0) return [];
	const read = text === null ? null : readYamlWithPositions(text);
	return found.map(({ path, message }) => ({
		file,
		...(read?.ok ? read.yaml.valueAt(path) : {}),
		message
	}));
}
