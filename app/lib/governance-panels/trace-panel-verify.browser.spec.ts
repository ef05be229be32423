import { flushSync, mount, unmount } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { buildMixedLedger } from '../../../hooks/ledger/ledger-test-fixtures.js';
import type { VerifyReport } from '../../../hooks/ledger/verify.js';
import { verifyInWorker } from '../ledger/verify-in-worker.js';
import type { VerifyProgress } from '../ledger/verify-messages.js';
import TracePanel from './TracePanel.svelte';

// The trace panel's Verify runs the verify Worker: progress while it runs, a Cancel that stops it.

const mounted: ReturnType<typeof mount>[] = [];
afterEach(() => {
	for (const component of mounted.splice(0)) unmount(component);
	document.body.replaceChildren();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(read: () => T | null | undefined | false, timeoutMs = 20_000): Promise<T> {
	const deadline = performance.now() + timeoutMs;
	for (;;) {
		const value = read();
		if (value) return value;
		if (performance.now() > deadline) throw new Error('timed out waiting');
		await sleep(20);
	}
}

function buttonNamed(root: ParentNode, name: string): HTMLButtonElement | undefined {
	return [...root.querySelectorAll('button')].find(
		(element) => element.textContent?.replace(/\s+/g, ' ').trim() === name
	);
}

type VerifyOptions = { onProgress: (progress: VerifyProgress) => void; signal: AbortSignal };

function mountPanel(
	onverify: (options: VerifyOptions) => Promise<VerifyReport>,
	events = [] as never[]
) {
	const target = document.createElement('div');
	document.body.append(target);
	mounted.push(mount(TracePanel, { target, props: { events, sessions: [], onverify } }));
	flushSync();
	return target;
}

describe('TracePanel Verify', () => {
	it('verifies the events in the Worker and shows the result', async () => {
		const { events } = await buildMixedLedger();
		const root = mountPanel(
			(options) =>
				verifyInWorker({ kind: 'events', events, activeIntentsYaml: '', intents: [] }, options),
			events as never[]
		);
		buttonNamed(root, 'Verify')?.click();
		await until(() => root.querySelector('[role="status"] .headline'));
		expect(root.querySelector('[role="status"]')?.textContent).toContain('Verified');
	});

	it('shows records checked of the total while it runs, and Cancel stops it', async () => {
		let aborted = false;
		const root = mountPanel(
			({ onProgress, signal }) =>
				new Promise<VerifyReport>((_resolve, reject) => {
					onProgress({ checked: 2_000, total: 100_000 });
					signal.addEventListener('abort', () => {
						aborted = true;
						reject(new DOMException('cancelled', 'AbortError'));
					});
				})
		);
		buttonNamed(root, 'Verify')?.click();
		await until(() => root.textContent?.includes('Checked 2,000 of 100,000 records'));
		buttonNamed(root, 'Cancel')?.click();
		await until(() => root.textContent?.includes('Verify was cancelled.'));
		expect(aborted).toBe(true);
		expect(buttonNamed(root, 'Cancel')).toBeUndefined();
	});
});
