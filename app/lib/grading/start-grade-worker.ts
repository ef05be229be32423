/** The grading Worker; Vite bundles it from this URL (verify and report run there, not in the page). */
export function startGradeWorker(): Worker {
	return new Worker(new URL('./grade.worker.ts', import.meta.url), { type: 'module' });
}
