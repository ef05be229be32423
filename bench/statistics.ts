/** Summary of individually timed samples, in milliseconds. */
export interface TimingSummary {
	median_ms: number;
	p99_ms: number;
	mean_ms: number;
	samples: number;
}

/**
 * Nearest-rank percentile (no interpolation): the reported value is one that was really measured,
 * so a p99 is never an average of two neighbours that hides an outlier.
 */
export function percentile(sortedSamples: readonly number[], fraction: number): number {
	if (sortedSamples.length === 0) throw new Error('percentile of no samples');
	if (!(fraction > 0 && fraction <= 1))
		throw new Error(`percentile fraction ${fraction} is not in (0, 1]`);
	const rank = Math.ceil(fraction * sortedSamples.length);
	return sortedSamples[Math.min(rank, sortedSamples.length) - 1] as number;
}

export function summarize(samples: readonly number[]): TimingSummary {
	if (samples.length === 0) throw new Error('cannot summarize zero samples');
	const sorted = [...samples].sort((left, right) => left - right);
	let total = 0;
	for (const sample of sorted) total += sample;
	return {
		median_ms: round(percentile(sorted, 0.5)),
		p99_ms: round(percentile(sorted, 0.99)),
		mean_ms: round(total / sorted.length),
		samples: sorted.length
	};
}

/** Microsecond resolution is all performance.now() promises; more digits would be noise. */
export function round(milliseconds: number, digits = 4): number {
	const scale = 10 ** digits;
	return Math.round(milliseconds * scale) / scale;
}
