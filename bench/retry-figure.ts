/** A figure that could not be measured, in place of its numbers. */
export interface FigureError {
	error: string;
	attempts: number;
}

/**
 * Measures a browser figure, once more when the first run fails (a browser hiccup, a dialog that
 * opened late), and returns the failure as `{error}` instead of throwing: one broken figure must
 * not take the whole bench down with it.
 */
export async function retryFigure<Figure>(
	name: string,
	measure: () => Promise<Figure>,
	progress: (line: string) => void = () => undefined
): Promise<Figure | FigureError> {
	let lastError = '';
	for (let attempt = 1; attempt <= 2; attempt++) {
		try {
			return await measure();
		} catch (error) {
			lastError = error instanceof Error ? error.message : String(error);
			progress(`  ${name} failed (attempt ${attempt} of 2): ${lastError.split('\n')[0] ?? ''}`);
		}
	}
	return { error: lastError, attempts: 2 };
}

export function isFigureError(value: unknown): value is FigureError {
	return (
		typeof value === 'object' && value !== null && typeof (value as FigureError).error === 'string'
	);
}
