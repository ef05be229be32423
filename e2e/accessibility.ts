import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * Serious and critical axe violations on the page, outside Monaco and xterm: they draw their own
 * text (absolutely placed spans and canvases axe misreads); their colours are checked by the theme
 * choice (e2e/theme.spec.ts) and by terminal-theme.test.ts.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
	const results = await new AxeBuilder({ page })
		.exclude('.monaco-editor')
		.exclude('.monaco-diff-editor')
		.exclude('.xterm')
		.analyze();
	return results.violations
		.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
		.map(
			(violation) =>
				`${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`
		);
}
