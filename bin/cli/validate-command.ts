import { readFile, stat } from 'node:fs/promises';
import { formatIntentsError, parseIntents } from '../../hooks/intents/parse-intents.js';
import { parseReplayScript } from '../../hooks/replay/replay-script.js';
import { scenarioFileText } from '../../hooks/scenarios/scenario-file-encoding.js';
import { checkScenarios, type CheckedScenarioFolder } from './build-scenarios.js';
import { parseArguments } from './parse-arguments.js';
import { UsageError } from './usage-error.js';

type Output = { out(text: string): void; err(text: string): void };

/**
 * `threadline validate <active_intents.yaml>` checks one intents file; given a scenario folder
 * (or a folder of them, like public/scenarios) it checks each scenario whole.
 */
export async function validateCommand(argv: string[], output: Output): Promise<number> {
	const { positional } = parseArguments(argv, {});
	if (positional.length !== 1)
		throw new UsageError(
			'validate takes exactly one path: threadline validate <active_intents.yaml | scenario folder>'
		);
	const path = positional[0] as string;
	const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
		throw new UsageError(`cannot read ${path}: ${error.code ?? error.message}`);
	});
	return info.isDirectory() ? validateScenarios(path, output) : validateIntentsFile(path, output);
}

async function validateIntentsFile(file: string, output: Output): Promise<number> {
	let text: string;
	try {
		text = await readFile(file, 'utf8');
	} catch (error) {
		throw new UsageError(
			`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`
		);
	}
	const parsed = parseIntents(text);
	if (!parsed.ok) {
		for (const error of parsed.errors) output.err(`${file}:${formatIntentsError(error)}`);
		output.err(`${parsed.errors.length} error(s) in ${file}`);
		return 1;
	}
	const intents = parsed.document.intents;
	output.out(
		`${file}: valid — ${intents.length} intent(s): ${intents.map((intent) => `${intent.id} (${intent.status})`).join(', ')}`
	);
	return 0;
}

async function validateScenarios(path: string, output: Output): Promise<number> {
	const checked = await checkScenarios(path);
	let errorCount = 0;
	for (const scenario of checked.scenarios) {
		for (const error of scenario.errors) output.err(error);
		errorCount += scenario.errors.length;
		if (scenario.bundle) output.out(describeValidScenario(scenario));
	}
	for (const error of checked.errors) output.err(error);
	errorCount += checked.errors.length;
	if (errorCount > 0) {
		output.err(`${errorCount} error(s) in ${path}`);
		return 1;
	}
	return 0;
}

function describeValidScenario(scenario: CheckedScenarioFolder): string {
	const bundle = scenario.bundle;
	if (!bundle) return `${scenario.folder}: invalid`;
	const intentsFile = bundle.files['.orchestration/active_intents.yaml'];
	const intentsText = intentsFile ? scenarioFileText(intentsFile) : null;
	const parsed = intentsText === null ? null : parseIntents(intentsText);
	const intents = parsed?.ok ? parsed.document.intents.length : 0;
	const demo = bundle.demo === null ? null : parseReplayScript(bundle.demo);
	const demoText = demo?.ok ? `, demo of ${demo.script.steps.length} step(s)` : ', no demo';
	const isDefault = bundle.manifest.default ? ' (default)' : '';
	return `${scenario.folder}: valid scenario "${bundle.manifest.id}"${isDefault} — ${intents} intent(s), ${Object.keys(bundle.files).length} file(s)${demoText}`;
}
