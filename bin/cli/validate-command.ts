import { readFile, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { formatIntentsError, parseIntents } from '../../hooks/intents/parse-intents.js';
import { formatHookPolicyError, parseHookPolicy } from '../../hooks/policies/parse-hook-policy.js';
import { parseReplayScript } from '../../hooks/replay/replay-script.js';
import { checkDemoScript } from '../../hooks/scenarios/check-demo-script.js';
import { scenarioFileText } from '../../hooks/scenarios/scenario-file-encoding.js';
import { checkScenarios, type CheckedScenarioFolder } from './build-scenarios.js';
import { parseArguments } from './parse-arguments.js';
import { UsageError } from './usage-error.js';

type Output = { out(text: string): void; err(text: string): void };

/**
 * `threadline validate <file>` checks one file by its name: `hooks.yaml` as a hook policy,
 * `scenario.yaml` as its scenario folder whole (the manifest, and steps, rubric and demo against
 * the intents), `demo.yaml` as a demo script, anything else as an intents file. Given a scenario
 * folder (or a folder of them, like public/scenarios) it checks each scenario whole.
 */
export async function validateCommand(argv: string[], output: Output): Promise<number> {
	const { positional } = parseArguments(argv, {});
	if (positional.length !== 1)
		throw new UsageError(
			'validate takes exactly one path: threadline validate <active_intents.yaml | hooks.yaml | scenario.yaml | demo.yaml | scenario folder>'
		);
	const path = positional[0] as string;
	const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
		throw new UsageError(`cannot read ${path}: ${error.code ?? error.message}`);
	});
	if (info.isDirectory()) return validateScenarios(path, output);
	switch (basename(path)) {
		case 'hooks.yaml':
			return validateHookPolicyFile(path, output);
		case 'scenario.yaml':
			return validateScenarios(dirname(path), output);
		case 'demo.yaml':
			return validateDemoFile(path, output);
		default:
			return validateIntentsFile(path, output);
	}
}

async function readTextFile(file: string): Promise<string> {
	try {
		return await readFile(file, 'utf8');
	} catch (error) {
		throw new UsageError(
			`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`
		);
	}
}

async function validateHookPolicyFile(file: string, output: Output): Promise<number> {
	const parsed = parseHookPolicy(await readTextFile(file));
	if (!parsed.ok) {
		for (const error of parsed.errors) output.err(`${file}:${formatHookPolicyError(error)}`);
		output.err(`${parsed.errors.length} error(s) in ${file}`);
		return 1;
	}
	output.out(`${file}: valid hook policy — ${parsed.policy.rules.length} rule(s)`);
	return 0;
}

async function validateDemoFile(file: string, output: Output): Promise<number> {
	const text = await readTextFile(file);
	const problems = checkDemoScript(text);
	if (problems.length > 0) {
		for (const error of problems)
			output.err(`${file}:${error.line}:${error.column} ${error.message}`);
		output.err(`${problems.length} error(s) in ${file}`);
		return 1;
	}
	const parsed = parseReplayScript(text);
	const steps = parsed.ok ? parsed.script.steps.length : 0;
	output.out(
		`${file}: valid demo script — ${steps} step(s) (validate its scenario folder to check it against the intents)`
	);
	return 0;
}

async function validateIntentsFile(file: string, output: Output): Promise<number> {
	const text = await readTextFile(file);
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
