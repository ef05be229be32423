import { classCsv } from '../../../hooks/report/class-csv.js';
import { renderExportMarkdown } from '../../../hooks/report/render-report.js';
import type { Rubric } from '../../../hooks/report/rubric.js';
import { parseScenarioManifest } from '../../../hooks/scenarios/scenario-schema.js';
import type { GradeDetail, GradeRequest, GradeResponse, GradeSummary } from './grade-protocol.js';
import {
	emptyFilter,
	filterRows,
	nextSort,
	sortRows,
	type GradeRow,
	type SortDirection,
	type SortKey,
	type TableFilter
} from './grade-table.js';
import { groupExports, type PickedFile } from './group-exports.js';
import { startGradeWorker } from './start-grade-worker.js';

/** The grader page's state: the rows, their sort and filter, the open export, the rubric. */
export class GradingDesk {
	rows = $state<GradeRow[]>([]);
	sort = $state<{ key: SortKey; direction: SortDirection }>({
		key: 'name',
		direction: 'ascending'
	});
	filter = $state<TableFilter>({ ...emptyFilter });
	openId = $state<number | null>(null);
	detail = $state<GradeDetail | null>(null);
	rubric = $state<{ name: string; rubric: Rubric } | null>(null);
	rubricErrors = $state<string[]>([]);
	notice = $state('');
	#worker: Worker | null = null;
	#nextId = 1;

	visibleRows = $derived(
		sortRows(filterRows(this.rows, this.filter), this.sort.key, this.sort.direction)
	);
	gradedSummaries = $derived(
		this.rows.flatMap((row) => (row.state === 'graded' ? [row.summary] : []))
	);
	pending = $derived(this.rows.filter((row) => row.state === 'pending').length);

	#ensureWorker(): Worker {
		if (this.#worker) return this.#worker;
		const worker = startGradeWorker();
		worker.addEventListener('message', (event: MessageEvent<GradeResponse>) =>
			this.#receive(event.data)
		);
		worker.addEventListener('error', (event) => {
			this.notice = `The grading worker failed: ${event.message}`;
		});
		this.#worker = worker;
		return worker;
	}

	#send(request: GradeRequest): void {
		this.#ensureWorker().postMessage(request);
	}

	#receive(response: GradeResponse): void {
		switch (response.type) {
			case 'progress':
				this.#replace(response.id, (row) => ({ ...row, state: 'pending', stage: response.stage }));
				break;
			case 'graded':
				this.#replace(response.summary.id, (row) => ({
					id: row.id,
					name: row.name,
					kind: row.kind,
					state: 'graded',
					summary: response.summary
				}));
				break;
			case 'failed':
				this.#replace(response.id, (row) => ({
					id: row.id,
					name: row.name,
					kind: row.kind,
					state: 'failed',
					error: response.error
				}));
				break;
			case 'detail':
				if (response.detail.id === this.openId) this.detail = response.detail;
				break;
			case 'rescored':
				this.rows = this.rows.map((row) => {
					if (row.state !== 'graded') return row;
					const found = response.scores.find((entry) => entry.id === row.id);
					return found ? { ...row, summary: { ...row.summary, score: found.score } } : row;
				});
				break;
		}
	}

	#replace(id: number, update: (row: GradeRow) => GradeRow): void {
		this.rows = this.rows.map((row) => (row.id === id ? update(row) : row));
	}

	/** Adds what was dropped or picked; each export becomes a pending row at once. */
	add(files: readonly PickedFile<Blob>[]): void {
		const { sources, ignored } = groupExports(files);
		this.notice = sources.length
			? ignored.length
				? `Ignored ${ignored.length} file(s) that belong to no export: ${ignored.slice(0, 3).join(', ')}${ignored.length > 3 ? '…' : ''}`
				: ''
			: 'No export found: drop zips from "Export .orchestration", export folders, or agent_trace.jsonl with audit.jsonl.';
		const rubric = this.rubric ? $state.snapshot(this.rubric.rubric) : null;
		for (const source of sources) {
			const id = this.#nextId++;
			this.rows = [
				...this.rows,
				{ id, name: source.name, kind: source.kind, state: 'pending', stage: 'queued' }
			];
			this.#send({ type: 'grade', id, source, rubric });
		}
	}

	sortBy(key: SortKey): void {
		this.sort = nextSort(this.sort, key);
	}

	open(id: number | null): void {
		this.openId = id;
		this.detail = null;
		if (id !== null) this.#send({ type: 'detail', id });
	}

	remove(id: number): void {
		this.rows = this.rows.filter((row) => row.id !== id);
		if (this.openId === id) this.open(null);
		this.#send({ type: 'forget', id });
	}

	summaryOf(id: number | null): GradeSummary | null {
		const row = this.rows.find((candidate) => candidate.id === id);
		return row?.state === 'graded' ? row.summary : null;
	}

	/** A scenario.yaml with a `rubric:`; errors are shown as line:column like the validator's. */
	async loadRubric(file: File): Promise<void> {
		const parsed = parseScenarioManifest(await file.text());
		if (!parsed.ok) {
			this.rubricErrors = parsed.errors.map(
				(error) => `${file.name}:${error.line}:${error.column} ${error.message}`
			);
			return;
		}
		if (!parsed.manifest.rubric) {
			this.rubricErrors = [`${file.name} has no rubric: section`];
			return;
		}
		this.rubricErrors = [];
		this.rubric = { name: file.name, rubric: parsed.manifest.rubric };
		this.#send({ type: 'rescore', rubric: parsed.manifest.rubric });
	}

	clearRubric(): void {
		this.rubric = null;
		this.rubricErrors = [];
		this.#send({ type: 'rescore', rubric: null });
	}

	/** The class CSV: the same function `threadline report <folder> --format csv` prints. */
	csv(): string {
		// The trailing newline is the one the CLI prints: the file equals `threadline report … > class.csv`.
		return `${classCsv(
			this.gradedSummaries.map((summary) => ({
				name: summary.name,
				report: summary.report,
				verified: summary.verified,
				score: summary.score
			})),
			this.rubric !== null
		)}\n`;
	}

	markdown(summary: GradeSummary): string {
		return renderExportMarkdown(summary.name, summary.report, summary.verified, summary.score);
	}

	dispose(): void {
		this.#worker?.terminate();
		this.#worker = null;
	}
}
