import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import {
	auditSeq,
	blockFindings,
	nonEmptyLineNumbers,
	sarifLog,
	seqLineIndex,
	traceSeq,
	verifyFindings
} from '../../hooks/formats/sarif.js';
import { classCsv, exportCsv } from '../../hooks/report/class-csv.js';
import { gradeExport } from '../../hooks/report/grade-export.js';
import { renderExportMarkdown } from '../../hooks/report/render-report.js';
import type { ScenarioRubric } from '../../hooks/report/scenario-rubric.js';
import { parseScenarioManifest } from '../../hooks/scenarios/scenario-schema.js';
import { findExports, loadExport } from './read-export-source.js';
import { nodeVerifyPorts } from './node-ports.js';
import { packageVersion } from './package-version.js';
import { verifyHelperThreads } from './verify-helper-thread.js';
import { parseArguments } from './parse-arguments.js';
import { UsageError } from './usage-error.js';

const formats = ['md', 'csv', 'json', 'sarif'] as const;

export async function reportCommand(
	argv: string[],
	output: { out(text: string): void; err(text: string): void }
): Promise<number> {
	const { positional, values } = parseArguments(argv, { values: ['format', 'rubric'] });
	if (positional.length !== 1)
		throw new UsageError(
			'report takes one export or a folder of exports: threadline report <dir|zip> [--format md|csv|json] [--rubric scenario.yaml]'
		);
	const format = values.get('format') ?? 'md';
	if (!(formats as readonly string[]).includes(format))
		throw new UsageError(`--format must be one of ${formats.join(', ')}`);
	const source = positional[0] as string;
	const rubricSource = values.get('rubric');
	const rubrics = rubricSource === undefined ? [] : await readRubrics(rubricSource);
	const scored = rubrics.length > 0;
	// A rubric scores only exports of its own scenario (the others say why in score_note).
	const options = { ...nodeVerifyPorts, rubrics };
	// Compiled while the exports are read, for ledgers large enough to verify on both cores.
	void verifyHelperThreads.prepare();

	const batch = await findExports(source);
	if (batch) {
		if (format === 'md' || format === 'sarif')
			throw new UsageError('a folder of several exports is reported as --format csv or json');
		const graded: Parameters<typeof classCsv>[0][number][] = [];
		const reports: unknown[] = [];
		for (const exportPath of batch) {
			try {
				const result = await gradeExport(await loadExport(exportPath), options);
				const name = basename(exportPath);
				graded.push({
					name,
					report: result.report,
					verified: result.verified,
					score: result.score,
					scenario: result.scenario?.id ?? null,
					scoreNote: result.scoreNote
				});
				reports.push({
					export: name,
					verified: result.verified,
					scenario: result.scenario,
					report: result.report,
					criteria: result.criteria,
					steps_passed: result.stepsPassed,
					...(scored ? { score: result.score, score_note: result.scoreNote } : {})
				});
			} catch (error) {
				// One broken submission must not stop a batch: say which, and go on.
				output.err(`${exportPath}: ${(error as Error).message}`);
				reports.push({ export: basename(exportPath), error: (error as Error).message });
			}
		}
		output.out(format === 'csv' ? classCsv(graded, scored) : JSON.stringify(reports, null, 2));
		return 0;
	}

	const loaded = await loadExport(source);
	const result = await gradeExport(loaded, options).catch((error: Error) => {
		throw new UsageError(error.message);
	});
	const name = basename(source);
	if (format === 'sarif') {
		// Every blocked call under its ToolError code, and whatever verify found.
		const findings = [
			...blockFindings(result.events, nonEmptyLineNumbers(loaded.auditJsonl)),
			...verifyFindings(
				result.verification,
				{
					audit: seqLineIndex(loaded.auditJsonl, auditSeq),
					trace: seqLineIndex(loaded.traceJsonl, traceSeq)
				},
				null,
				[...loaded.files.keys(), ...loaded.links.keys(), ...loaded.orchestrationFiles.keys()]
			)
		];
		output.out(
			JSON.stringify(
				sarifLog(findings, { toolVersion: packageVersion(), rules: 'report' }),
				null,
				2
			)
		);
		return 0;
	}
	if (format === 'json')
		output.out(
			JSON.stringify(
				{
					verified: result.verified,
					scenario: result.scenario,
					...result.report,
					criteria: result.criteria,
					steps_passed: result.stepsPassed,
					...(scored ? { score: result.score, score_note: result.scoreNote } : {})
				},
				null,
				2
			)
		);
	else if (format === 'csv')
		output.out(
			exportCsv(
				{
					name,
					report: result.report,
					verified: result.verified,
					score: result.score,
					scenario: result.scenario?.id ?? null,
					scoreNote: result.scoreNote
				},
				scored
			)
		);
	else {
		output.out(renderExportMarkdown(name, result.report, result.verified, result.score));
		if (result.scoreNote) output.out(`\n_${result.scoreNote}_`);
	}
	return 0;
}

/**
 * The rubrics `--rubric` names: a scenario.yaml, a scenario folder, or a folder of scenario folders
 * (a class that did several exercises: each scenario with a `rubric:` scores its own exports).
 */
async function readRubrics(source: string): Promise<ScenarioRubric[]> {
	const info = await stat(source).catch(() => null);
	if (!info) throw new UsageError(`${source} does not exist`);
	if (!info.isDirectory()) return [await readRubric(source)];
	const own = join(source, 'scenario.yaml');
	if (await stat(own).catch(() => null)) return [await readRubric(own)];
	const rubrics: ScenarioRubric[] = [];
	const children = await readdir(source, { withFileTypes: true });
	for (const child of children.sort((left, right) => (left.name < right.name ? -1 : 1))) {
		const path = join(source, child.name, 'scenario.yaml');
		if (!child.isDirectory() || !(await stat(path).catch(() => null))) continue;
		const rubric = await readRubric(path, { optional: true });
		if (rubric) rubrics.push(rubric);
	}
	if (rubrics.length === 0)
		throw new UsageError(`${source} holds no scenario with a rubric: section`);
	const ids = rubrics.map((rubric) => rubric.scenarioId);
	const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
	if (repeated) throw new UsageError(`${source}: two rubrics for scenario "${repeated}"`);
	return rubrics;
}

/**
 * The rubric of one scenario.yaml, validated with line:column, with the scenario it belongs to
 * (the manifest's id): it scores only that scenario's exports.
 */
async function readRubric(
	path: string,
	options: { optional: true }
): Promise<ScenarioRubric | null>;
async function readRubric(path: string): Promise<ScenarioRubric>;
async function readRubric(
	path: string,
	options: { optional?: boolean } = {}
): Promise<ScenarioRubric | null> {
	const text = await readFile(path, 'utf8').catch(() => {
		throw new UsageError(`${path} cannot be read`);
	});
	const parsed = parseScenarioManifest(text);
	if (!parsed.ok)
		throw new UsageError(
			parsed.errors
				.map((error) => `${path}:${error.line}:${error.column} ${error.message}`)
				.join('\n')
		);
	if (!parsed.manifest.rubric) {
		if (options.optional) return null;
		throw new UsageError(`${path} has no rubric: section`);
	}
	return {
		scenarioId: parsed.manifest.id,
		title: parsed.manifest.title,
		rubric: parsed.manifest.rubric
	};
}
