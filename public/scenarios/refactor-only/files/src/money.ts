/** Whole cents as euros, e.g. 6694 → "€66.94" and -5 → "-€0.05". Integer math: no float drift. */
export function formatCents(cents: number): string {
	if (!Number.isInteger(cents)) throw new RangeError(`not a whole number of cents: ${cents}`);
	const sign = cents < 0 ? '-' : '';
	const absolute = Math.abs(cents);
	const euros = Math.floor(absolute / 100);
	return `${sign}€${euros}.${String(absolute % 100).padStart(2, '0')}`;
}
