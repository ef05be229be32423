/** Upper limits by figure name, e.g. `{ median_ms: 0.1, p99_ms: 1 }`. */
export type Budget = Readonly<Record<string, number>>;

/** True when every limited figure was measured and is at or under its limit. */
export function withinBudget(measured: Readonly<Record<string, unknown>>, budget: Budget): boolean {
	const limits = Object.entries(budget);
	if (limits.length === 0) throw new Error('a budget needs at least one limit');
	return limits.every(([name, limit]) => {
		const value = measured[name];
		if (typeof value !== 'number' || Number.isNaN(value))
			throw new Error(`the budget limits ${name}, which was not measured`);
		return value <= limit;
	});
}
