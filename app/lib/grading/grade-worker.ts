import { knownContents } from '../../../hooks/ledger/known-contents.js';
import { readExportFiles, unzipExportNatively } from '../../../hooks/ledger/read-export.js';
import { gradeExport, type GradedExport } from '../../../hooks/report/grade-export.js';
import { scoreExport } from '../../../hooks/report/rubric.js';
import { rubricForExport, type ScenarioRubric } from '../../../hooks/report/scenario-rubric.js';
import type { ExportSource } from './group-exports.js';
import type { GradeRequest, GradeResponse } from './grade-protocol.js';
import { summarizeGraded } from './summarize-graded.js';

/**
 * The Worker's side: reads the dropped files, runs the same verify/report code as the CLI
 * (`gradeExport`), keeps each export's full result for its detail page and answers with small
 * summaries. Exported as a function over a post callback so Node tests can drive it.
 */
export function createGradeWorker(post: (response: GradeResponse) => void) {
	const kept = new Map<number, GradedExport>();
	/** The file versions time travel can show, by hash (known-contents.ts), per export. */
	const contents = new Map<number, Map<string, string>>();
	// One export at a time: 60 dropped at once must not hold 60 unzipped copies in flight.
	let queue: Promise<void> = Promise.resolve();

	async function grade(request: Extract<GradeRequest, { type: 'grade' }>): Promise<void> {
		const { id, source } = request;
		try {
			post({ type: 'progress', id, stage: 'reading' });
			const entries = await entriesOf(source);
			const loaded = readExportFiles(entries);
			if ('error' in loaded) throw new Error(loaded.error);
			post({ type: 'progress', id, stage: 'verifying' });
			const filesChecked = source.kind !== 'jsonl';
			const graded = await gradeExport(loaded, {
				rubrics: request.rubrics,
				checkFiles: filesChecked
			});
			kept.set(id, graded);
			contents.set(id, await knownContents(graded.events, loaded.files));
			post({
				type: 'graded',
				summary: summarizeGraded(id, source.name, source.kind, graded, filesChecked)
			});
		} catch (error) {
			post({
				type: 'failed',
				id,
				name: source.name,
				kind: source.kind,
				error: (error as Error).message
			});
		}
	}

	return {
		handle(request: GradeRequest): Promise<void> {
			switch (request.type) {
				case 'grade':
					queue = queue.then(() => grade(request));
					return queue;
				case 'detail': {
					const graded = kept.get(request.id);
					if (graded)
						post({
							type: 'detail',
							detail: {
								id: request.id,
								events: graded.events,
								intents: graded.intents,
								verification: graded.verification,
								contents: [...(contents.get(request.id) ?? [])]
							}
						});
					return Promise.resolve();
				}
				case 'rescore':
					queue = queue.then(() => rescore(request.rubrics));
					return queue;
				case 'forget':
					kept.delete(request.id);
					contents.delete(request.id);
					return Promise.resolve();
			}
		}
	};

	async function rescore(rubrics: ScenarioRubric[]): Promise<void> {
		const scores = [...kept].map(([id, graded]) => {
			// The same choice gradeExport makes: only a rubric of the export's own scenario scores it.
			const chosen = rubricForExport(rubrics, graded.scenario);
			graded.score = chosen.rubric
				? scoreExport(chosen.rubric.rubric, {
						report: graded.report,
						criteria: graded.criteria,
						verified: graded.verified,
						unattributedFiles:
							graded.verification.files.unattributed.length +
							graded.verification.files.contentMismatches.length,
						passedSteps: new Set(graded.stepsPassed)
					})
				: null;
			graded.scoreNote = chosen.note;
			graded.rubricScenario = chosen.rubric?.scenarioId ?? null;
			return { id, score: graded.score, scoreNote: graded.scoreNote };
		});
		post({ type: 'rescored', scores });
	}
}

async function bytesOf(blob: Blob): Promise<Uint8Array> {
	return new Uint8Array(await blob.arrayBuffer());
}

async function entriesOf(source: ExportSource<Blob>): Promise<Map<string, Uint8Array>> {
	switch (source.kind) {
		case 'zip':
			return (await unzipExportNatively(await bytesOf(source.content))).files;
		case 'folder': {
			const entries = new Map<string, Uint8Array>();
			for (const file of source.files) entries.set(file.path, await bytesOf(file.content));
			return entries;
		}
		case 'jsonl':
			return new Map([
				['.orchestration/audit.jsonl', await bytesOf(source.audit)],
				['.orchestration/agent_trace.jsonl', await bytesOf(source.trace)]
			]);
	}
}
