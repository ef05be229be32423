import { classCsv } from '../../../hooks/report/class-csv.js';
import { renderExportMarkdown } from '../../../hooks/report/render-report.js';
import type { ScenarioRubric } from '../../../hooks/report/scenario-rubric.js';
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
import { groupExports, type ExportSource, type PickedFile } from './group-exports.js';
import type { IntentCheck } from '../../../hooks/intents/check-criteria.js';
import { startGradeWorker } from './start-grade-worker.js';
import { clearStoredDesk, readStoredDesk, writeStoredDesk } from './desk-store.js';

/** How many new rows render in one task (see #show). */
const rowsPerSlice = 10;

/** The grader page's state: the rows, their sort and filter, the open export, the rubric. */
export class GradingDesk {
	/**
	 * Raw, not deeply reactive: rows are only ever replaced, never mutated, and a graded summary is
	 * a large object; deep proxies made every read during 60 exports' updates cost (the page's
	 * longest tasks were Svelte proxy traps).
	 */
	rows = $state.raw<GradeRow[]>([]);
	sort = $state<{ key: SortKey; direction: SortDirection }>({
		key: 'name',
		direction: 'ascending'
	});
	filter = $state<TableFilter>({ ...emptyFilter });
	openId = $state<number | null>(null);
	/** Raw for the same reason: an export's detail holds every event of its ledger. */
	detail = $state.raw<GradeDetail | null>(null);
	/**
	 * The rubrics loaded, one per scenario (a class that did several exercises loads several):
	 * each scores only exports whose ledger names its scenario; the others say why not.
	 */
	rubrics = $state<{ name: string; rubric: ScenarioRubric }[]>([]);
	rubricErrors = $state<string[]>([]);
	notice = $state('');
	/** The grading Workers: one per core but one (at most 4); each export is graded and kept by one. */
	#workers: Worker[] = [];
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered
	#owner = new Map<number, Worker>();
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered
	#load = new Map<Worker, number>();
	#nextId = 1;
	/** What each row was made from, for "Re-run criteria" (the Workers keep their own copy). */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered
	#sources = new Map<number, ExportSource<Blob>>();
	/** The open export's re-run criteria: running, their results, or why they could not run. */
	rerun = $state<
		| { id: number; state: 'running' }
		| { id: number; state: 'done'; checks: IntentCheck[] }
		| { id: number; state: 'failed'; error: string }
		| null
	>(null);
	/** Row updates wait for the next flush: 60 exports answer ~180 messages, one render each was O(n²). */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered
	#queued = new Map<number, (row: GradeRow) => GradeRow>();
	#flushTimer: ReturnType<typeof setTimeout> | null = null;

	visibleRows = $derived(
		sortRows(filterRows(this.rows, this.filter), this.sort.key, this.sort.direction)
	);
	gradedSummaries = $derived(
		this.rows.flatMap((row) => (row.state === 'graded' ? [row.summary] : []))
	);
	pending = $derived(this.rows.filter((row) => row.state === 'pending').length);

	#pool(): Worker[] {
		if (this.#workers.length > 0) return this.#workers;
		const cores = globalThis.navigator?.hardwareConcurrency ?? 2;
		// One core stays with the page (rendering 60 rows as they arrive); measured on 2 cores, a
		// second Worker there made grading no faster.
		const size = Math.max(1, Math.min(4, cores - 1));
		for (let index = 0; index < size; index++) {
			const worker = startGradeWorker();
			worker.addEventListener('message', (event: MessageEvent<GradeResponse>) =>
				this.#receive(worker, event.data)
			);
			worker.addEventListener('error', (event) => {
				this.notice = `The grading worker failed: ${event.message}`;
			});
			this.#workers.push(worker);
			this.#load.set(worker, 0);
		}
		return this.#workers;
	}

	/**
	 * Exports waiting for a Worker. Each Worker holds at most two (the next one arrives while it
	 * grades the current, and memory stays bounded); the rest are handed out as Workers finish.
	 * Posting all at once was one long task: structured-cloning a picked File costs about 1 ms, so
	 * 60 exports blocked the page for ~50 ms before the first row rendered.
	 */
	#waiting: { id: number; source: ExportSource<Blob> }[] = [];

	#dispatch(): void {
		// The rubric as it is now: one picked after the drop applies to the exports still waiting.
		const rubrics = this.#rubricList();
		for (const worker of this.#pool()) {
			while (this.#waiting.length > 0 && (this.#load.get(worker) ?? 0) < 2) {
				const next = this.#waiting.shift() as { id: number; source: ExportSource<Blob> };
				this.#owner.set(next.id, worker);
				this.#load.set(worker, (this.#load.get(worker) ?? 0) + 1);
				worker.postMessage({
					type: 'grade',
					id: next.id,
					source: next.source,
					rubrics
				} satisfies GradeRequest);
			}
		}
	}

	#settled(worker: Worker): void {
		this.#load.set(worker, Math.max(0, (this.#load.get(worker) ?? 1) - 1));
		this.#dispatch();
	}

	#receive(worker: Worker, response: GradeResponse): void {
		switch (response.type) {
			case 'progress':
				this.#replace(response.id, (row) => ({ ...row, state: 'pending', stage: response.stage }));
				break;
			case 'graded':
				this.#settled(worker);
				this.#replace(response.summary.id, (row) => ({
					id: row.id,
					name: row.name,
					kind: row.kind,
					state: 'graded',
					summary: response.summary
				}));
				break;
			case 'failed':
				this.#settled(worker);
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
				this.#flush();
				this.rows = this.rows.map((row) => {
					if (row.state !== 'graded') return row;
					const found = response.scores.find((entry) => entry.id === row.id);
					return found
						? {
								...row,
								summary: { ...row.summary, score: found.score, scoreNote: found.scoreNote }
							}
						: row;
				});
				break;
		}
	}

	#replace(id: number, update: (row: GradeRow) => GradeRow): void {
		const earlier = this.#queued.get(id);
		this.#queued.set(id, earlier ? (row) => update(earlier(row)) : update);
		// A timer rather than requestAnimationFrame: a grader may switch tabs while 60 exports grade.
		this.#flushTimer ??= setTimeout(() => this.#flush(), 50);
	}

	#flush(): void {
		if (this.#flushTimer !== null) clearTimeout(this.#flushTimer);
		this.#flushTimer = null;
		if (this.#queued.size === 0) return;
		const queued = this.#queued;
		// eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered
		this.#queued = new Map();
		// An update for a row not shown yet (rows are added in slices) waits for it.
		// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local lookup, never rendered
		const shown = new Set(this.rows.map((row) => row.id));
		for (const [id, update] of queued) {
			if (shown.has(id) || !this.#sources.has(id)) continue;
			this.#queued.set(id, update);
		}
		this.rows = this.rows.map((row) => queued.get(row.id)?.(row) ?? row);
		if (this.#queued.size > 0) this.#flushTimer = setTimeout(() => this.#flush(), 50);
	}

	/**
	 * New rows, a slice per task: rendering 60 table rows at once was the page's longest task
	 * (~75 ms); slices of 10 keep each well under the 50 ms a page may block.
	 */
	#show(rows: GradeRow[]): void {
		const slice = rows.slice(0, rowsPerSlice).filter((row) => this.#sources.has(row.id));
		if (slice.length) this.rows = [...this.rows, ...slice];
		const rest = rows.slice(rowsPerSlice);
		if (rest.length) setTimeout(() => this.#show(rest), 0);
	}

	/** Adds what was dropped or picked; each export becomes a pending row at once. */
	/**
	 * Adds picked, dropped or fetched exports, in a task of its own: the browser's handling of a
	 * 60-file input already made the change event's task ~50 ms long, and adding the rows in it
	 * made it the page's longest (80–160 ms; budget 50).
	 */
	add(files: readonly PickedFile<Blob>[]): void {
		setTimeout(() => this.#add(files), 0);
	}

	#add(files: readonly PickedFile<Blob>[]): void {
		const { sources, ignored } = groupExports(files);
		this.notice = sources.length
			? ignored.length
				? `Ignored ${ignored.length} file(s) that belong to no export: ${ignored.slice(0, 3).join(', ')}${ignored.length > 3 ? '…' : ''}`
				: ''
			: 'No export found: drop zips from "Export .orchestration", export folders, or agent_trace.jsonl with audit.jsonl.';
		this.#addSources(sources);
		this.#persist();
	}

	#addSources(sources: readonly ExportSource<Blob>[]): void {
		const added: GradeRow[] = [];
		for (const source of sources) {
			const id = this.#nextId++;
			this.#sources.set(id, source);
			added.push({ id, name: source.name, kind: source.kind, state: 'pending', stage: 'queued' });
			this.#waiting.push({ id, source });
		}
		this.#show(added);
		this.#dispatch();
	}

	sortBy(key: SortKey): void {
		this.sort = nextSort(this.sort, key);
	}

	/** Re-runs the open export's acceptance criteria in the offline sandbox (see rerun-criteria.ts). */
	async rerunCriteria(id: number): Promise<void> {
		const source = this.#sources.get(id);
		if (!source) return;
		this.rerun = { id, state: 'running' };
		try {
			const { rerunCriteria } = await import('./rerun-criteria.js');
			const checks = await rerunCriteria(source);
			if (this.rerun?.id === id) this.rerun = { id, state: 'done', checks };
		} catch (error) {
			if (this.rerun?.id === id)
				this.rerun = {
					id,
					state: 'failed',
					error: error instanceof Error ? error.message : String(error)
				};
		}
	}

	open(id: number | null): void {
		this.openId = id;
		this.detail = null;
		if (this.rerun?.id !== id) this.rerun = null;
		if (id !== null)
			this.#owner.get(id)?.postMessage({ type: 'detail', id } satisfies GradeRequest);
	}

	/**
	 * The desk as it was before the reload (desk-store.ts): its exports are graded again, its
	 * rubrics loaded again. Nothing is stored until this has run, so a reload never wipes the desk.
	 */
	async restore(): Promise<void> {
		if (this.#restoring) return this.#restoring;
		this.#restoring = (async () => {
			try {
				const stored = await readStoredDesk();
				if (stored) {
					this.rubrics = [...stored.rubrics, ...this.rubrics];
					if (stored.sources.length) this.#addSources(stored.sources);
				}
			} catch (error) {
				this.notice = `The desk kept before the reload could not be read: ${error instanceof Error ? error.message : String(error)}`;
			}
			this.#restored = true;
			this.#persist();
		})();
		return this.#restoring;
	}

	#restoring: Promise<void> | null = null;
	#restored = false;

	/** Keeps the desk's exports and rubrics for a reload; says so when the browser cannot. */
	#persist(): void {
		if (!this.#restored) return;
		const stored = { sources: [...this.#sources.values()], rubrics: this.#rubricEntries() };
		void writeStoredDesk(stored).then((problem) => {
			if (problem) this.notice = `Not kept for a reload: ${problem}`;
		});
	}

	#rubricEntries(): { name: string; rubric: ScenarioRubric }[] {
		return this.rubrics.map((entry) => ({
			name: entry.name,
			rubric: $state.snapshot(entry.rubric) as ScenarioRubric
		}));
	}

	/** "Clear desk": every row and rubric gone, here and in the stored desk. */
	async clearDesk(): Promise<void> {
		for (const id of [...this.#sources.keys()]) this.remove(id, false);
		this.rubrics = [];
		this.rubricErrors = [];
		this.notice = '';
		await clearStoredDesk().catch(() => undefined);
	}

	remove(id: number, keep = true): void {
		this.#flush();
		this.rows = this.rows.filter((row) => row.id !== id);
		this.#sources.delete(id);
		if (keep) this.#persist();
		this.#waiting = this.#waiting.filter((waiting) => waiting.id !== id);
		if (this.openId === id) this.open(null);
		this.#owner.get(id)?.postMessage({ type: 'forget', id } satisfies GradeRequest);
		this.#owner.delete(id);
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
		const rubric: ScenarioRubric = {
			scenarioId: parsed.manifest.id,
			title: parsed.manifest.title,
			rubric: parsed.manifest.rubric
		};
		// A second rubric of the same scenario replaces the first: two would leave its exports unscored.
		this.rubrics = [
			...this.rubrics.filter((entry) => entry.rubric.scenarioId !== rubric.scenarioId),
			{ name: file.name, rubric }
		];
		this.#rescore();
		this.#persist();
	}

	/** Unloads one scenario's rubric (`scenarioId`), or every rubric. */
	clearRubric(scenarioId?: string): void {
		this.rubrics =
			scenarioId === undefined
				? []
				: this.rubrics.filter((entry) => entry.rubric.scenarioId !== scenarioId);
		this.rubricErrors = [];
		this.#rescore();
		this.#persist();
	}

	#rubricList(): ScenarioRubric[] {
		return this.rubrics.map((entry) => $state.snapshot(entry.rubric) as ScenarioRubric);
	}

	#rescore(): void {
		const rubrics = this.#rubricList();
		for (const worker of this.#workers)
			worker.postMessage({ type: 'rescore', rubrics } satisfies GradeRequest);
	}

	/** The class CSV: the same function `threadline report <folder> --format csv` prints. */
	csv(): string {
		// The trailing newline is the one the CLI prints: the file equals `threadline report … > class.csv`.
		return `${classCsv(
			this.gradedSummaries.map((summary) => ({
				name: summary.name,
				report: summary.report,
				verified: summary.verified,
				score: summary.score,
				scenario: summary.scenario?.id ?? null,
				scoreNote: summary.scoreNote
			})),
			this.rubrics.length > 0
		)}\n`;
	}

	markdown(summary: GradeSummary): string {
		return renderExportMarkdown(summary.name, summary.report, summary.verified, summary.score);
	}

	/**
	 * Starts the grading Workers before anything is picked: loading and compiling their code
	 * (verify, report, the zip reader) is then done while the grader finds the files, not after.
	 */
	prepare(): void {
		this.#pool();
		void this.restore();
	}

	dispose(): void {
		if (this.#flushTimer !== null) clearTimeout(this.#flushTimer);
		for (const worker of this.#workers) worker.terminate();
		this.#workers = [];
		this.#owner.clear();
		this.#load.clear();
		this.#waiting = [];
	}
}
