import { buildJwtAuthBundle } from '../app/lib/share/share-test-fixtures.js';
import { openShareFragment, shareUrl } from '../app/lib/share/share-link.js';
import { withinBudget } from './budget.js';
import { summarize } from './statistics.js';

const budget = { url_bytes: 8 * 1024, open_median_ms: 1_500 };

/**
 * The jwt-auth workspace as a share link: its URL length (against a typical origin) and the time
 * to open it — fragment → inflated, validated scenario bundle, the part of opening a link that
 * share links add to loading a scenario (the IDE's own start is measured by editor_interactive).
 */
export async function shareLinkFigures(runs = 20): Promise<{
	url_bytes: number;
	open_ms: ReturnType<typeof summarize>;
	budget: typeof budget;
	within_budget: boolean;
}> {
	const bundle = await buildJwtAuthBundle();
	const link = shareUrl('https://threadline.example/', bundle);
	if (!link.ok) throw new Error(link.message);
	const fragment = link.url.slice(link.url.indexOf('#'));
	const timings: number[] = [];
	for (let run = 0; run <= runs; run++) {
		const started = performance.now();
		const opened = await openShareFragment(fragment);
		const elapsed = performance.now() - started;
		if (!opened?.ok) throw new Error('the jwt-auth share link did not open');
		if (run > 0) timings.push(elapsed);
	}
	const open = summarize(timings);
	const urlBytes = new TextEncoder().encode(link.url).length;
	return {
		url_bytes: urlBytes,
		open_ms: open,
		budget,
		within_budget: withinBudget({ url_bytes: urlBytes, open_median_ms: open.median_ms }, budget)
	};
}
