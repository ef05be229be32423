import axe from 'axe-core';
import { flushSync, mount, unmount } from 'svelte';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cdp, page } from 'vitest/browser';
import '../../app.css';
import type { ApprovalPrompt } from '../../../hooks/pipeline/ports.js';
import { ApprovalQueue } from './approval-queue.svelte.js';
import ApprovalModal from './ApprovalModal.svelte';
import { contrastRatio } from '../theme/contrast.js';
import { textBackgrounds } from '../theme/monaco-themes.js';

/**
 * The approval modal's diff in real Monaco: it opens on the change being approved (unchanged
 * lines folded), shows a new file inline, and every text in it, Monaco's included, reaches AA in
 * both colour schemes.
 */

const mounted: ReturnType<typeof mount>[] = [];
beforeAll(async () => {
	// Monaco's first load takes many seconds on a busy machine; not part of any test's wait.
	const { loadMonaco } = await import('../editor/monaco-loader.js');
	await loadMonaco();
}, 120_000);
afterEach(async () => {
	for (const component of mounted.splice(0)) unmount(component);
	document.body.replaceChildren();
	await emulateScheme('dark');
});

async function emulateScheme(scheme: 'light' | 'dark') {
	// The Chromium DevTools protocol, untyped in Vitest's context.
	const session = cdp() as unknown as {
		send(method: string, parameters: object): Promise<unknown>;
	};
	await session.send('Emulation.setEmulatedMedia', {
		features: [{ name: 'prefers-color-scheme', value: scheme }]
	});
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, what: string, timeoutMs = 45_000) {
	const started = Date.now();
	while (!condition()) {
		if (Date.now() - started > timeoutMs)
			throw new Error(
				`Timed out waiting for ${what}; the diff shows: ${visibleText().slice(0, 400)}`
			);
		await sleep(50);
	}
}

function open(preview: ApprovalPrompt['preview']) {
	const queue = new ApprovalQueue();
	const target = document.createElement('div');
	document.body.append(target);
	mounted.push(mount(ApprovalModal, { target, props: { queue } }));
	void queue.request({
		hook: 'approval-policy',
		reasons: ['The agent wants to change the file.'],
		intentId: 'INT-001',
		sessionId: 'builder',
		tool: 'write_to_file',
		toolCallId: 'call-1',
		input: {},
		preview
	});
	flushSync();
}

const visibleText = () =>
	[...document.querySelectorAll('.monaco-diff-editor .view-line')]
		.map((line) => (line.textContent ?? '').replace(/\u00a0/g, ' '))
		.join('\n');

const longFile = (changedLine: number, text: string) =>
	Array.from({ length: 200 }, (_, index) =>
		index + 1 === changedLine ? text : `// line ${index + 1} stays as it was`
	).join('\n') + '\n';

describe('approval diff', () => {
	it('opens on the change being approved, with the unchanged lines folded away', async () => {
		await page.viewport(1400, 900);
		open([
			{
				path: 'src/long.ts',
				before: longFile(150, 'export const limit = 1;'),
				after: longFile(150, 'export const limit = 2;')
			}
		]);
		await until(() => visibleText().includes('limit = 2'), 'the changed line to show');
		expect(visibleText()).not.toContain('line 1 stays');
		expect(document.querySelector('.monaco-diff-editor.side-by-side')).not.toBeNull();
	});

	it('shows a new file as one inline column, not beside an empty half', async () => {
		await page.viewport(1400, 900);
		open([{ path: 'src/new.ts', before: null, after: 'export const created = true;\n' }]);
		await until(() => visibleText().includes('created = true'), 'the new file to show');
		expect(document.querySelector('.monaco-diff-editor.side-by-side')).toBeNull();
	});

	for (const scheme of ['dark', 'light'] as const) {
		it(`${scheme}: no serious contrast finding in the modal, Monaco's diff included`, async () => {
			await page.viewport(1400, 900);
			await emulateScheme(scheme);
			const before = ['/** A comment the reviewer must read. */', 'const removed = /ab+c/;', ''];
			const after = ['/** A comment the reviewer must read. */', 'const added = 42;', ''];
			open([{ path: 'src/a.ts', before: before.join('\n'), after: after.join('\n') }]);
			await until(() => visibleText().includes('added = 42'), 'the diff to show');
			// Monaco colours its tokens after tokenizing; give it a moment.
			await sleep(500);
			const results = await axe.run(document, { runOnly: ['color-contrast'] });
			const serious = results.violations
				.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
				.flatMap((violation) =>
					violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary}`)
				);
			expect(serious).toEqual([]);
			// axe cannot judge Monaco's text (absolutely placed layers: "needs review"), so its
			// painted token colours are measured against every background a diff puts behind them.
			const tokenColors = new Set(
				[...document.querySelectorAll('.monaco-diff-editor .view-line span span')].map(
					(span) => getComputedStyle(span).color
				)
			);
			expect(tokenColors.size).toBeGreaterThan(2);
			const lowContrast = [...tokenColors].filter((rgb) => {
				const [red, green, blue] = (rgb.match(/\d+/g) ?? []).map(Number) as [
					number,
					number,
					number
				];
				return textBackgrounds(scheme).some(
					(background) => contrastRatio({ red, green, blue, alpha: 1 }, background) < 4.5
				);
			});
			expect(lowContrast).toEqual([]);
		});
	}
});
