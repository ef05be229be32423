import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright';
import { chromiumArguments, chromiumExecutablePath } from '../e2e/chromium.js';
import { startServer } from './start-server.js';

/**
 * A performance trace of one cold load of the IDE, for reading rather than budgets (those are in
 * editor-interactive.ts): milestones (tree listed, terminal prompt, editor shown, keystroke
 * accepted), the resource waterfall and the main thread's busy time per 250 ms from a CPU profile.
 * Run after `npm run build`: `node bin/run-ts.js bench/cold-load-trace.ts [profile.cpuprofile]`.
 * The profiler itself slows the page down; compare traces with each other, not with the bench.
 */
const profilePath = process.argv[2];
const port = 4300 + Math.floor(Math.random() * 500);
const server = await startServer(port);
const browser = await chromium.launch({
	executablePath: chromiumExecutablePath,
	args: chromiumArguments
});
try {
	const context = await browser.newContext({ viewport: { width: 1400, height: 850 } });
	await context.addInitScript(() =>
		localStorage.setItem('threadline-brief-seen-built-in:jwt-auth', 'seen')
	);
	const page = await context.newPage();
	const cdp = await context.newCDPSession(page);
	await cdp.send('Profiler.enable');
	await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
	await cdp.send('Profiler.start');
	const started = Date.now();
	const milestones: Record<string, number> = {};
	await page.goto(`http://127.0.0.1:${port}/?scenario=jwt-auth`);
	milestones.navigated = Date.now() - started;
	const readme = page.getByRole('treeitem', { name: 'README.md', exact: true });
	await readme.waitFor({ timeout: 60_000 });
	milestones.tree_listed = Date.now() - started;
	// A person clicks the tree as soon as it is there; the terminal's prompt is timed after.
	await readme.click();
	const lines = page.locator('.monaco-editor .view-lines').first();
	await lines.waitFor({ timeout: 60_000 });
	milestones.editor_shown = Date.now() - started;
	await lines.click();
	await page.keyboard.type('Z');
	await lines.filter({ hasText: 'Z' }).waitFor({ timeout: 60_000 });
	milestones.keystroke_accepted = Date.now() - started;
	await page.locator('.xterm-rows').filter({ hasText: 'workspace $' }).waitFor({ timeout: 60_000 });
	milestones.terminal_prompt = Date.now() - started;
	const { profile } = await cdp.send('Profiler.stop');
	if (profilePath) writeFileSync(profilePath, JSON.stringify(profile));
	const resources = await page.evaluate(() =>
		(performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((entry) => ({
			start_ms: Math.round(entry.startTime),
			end_ms: Math.round(entry.responseEnd),
			kb: Math.round(entry.transferSize / 1024),
			url: entry.name.replace(/^https?:\/\/[^/]+/, '')
		}))
	);
	console.log(JSON.stringify({ milestones }, null, 1));
	console.log('\nresources (start → end ms, KB transferred)');
	for (const entry of resources)
		console.log(`${entry.start_ms}\t${entry.end_ms}\t${entry.kb}\t${entry.url}`);
	console.log('\nmain thread per 250 ms (ms by script file; idle = waiting)');
	for (const line of busyTimeline(profile)) console.log(line);
} finally {
	await browser.close();
	server.kill('SIGTERM');
}

interface ProfileNode {
	id: number;
	callFrame: { url: string; functionName: string };
}

function busyTimeline(profile: {
	nodes: ProfileNode[];
	samples?: number[];
	timeDeltas?: number[];
}): string[] {
	const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
	const buckets = new Map<number, Map<string, number>>();
	let elapsed = 0;
	const samples = profile.samples ?? [];
	const deltas = profile.timeDeltas ?? [];
	for (let index = 0; index < samples.length; index++) {
		elapsed += deltas[index] ?? 0;
		const frame = nodes.get(samples[index] ?? -1)?.callFrame;
		const name = frame?.url.split('/').at(-1) || frame?.functionName || '?';
		const bucket = Math.floor(elapsed / 1000 / 250);
		const counts = buckets.get(bucket) ?? new Map<string, number>();
		counts.set(name, (counts.get(name) ?? 0) + (deltas[index] ?? 0) / 1000);
		buckets.set(bucket, counts);
	}
	return [...buckets.entries()]
		.sort(([left], [right]) => left - right)
		.map(([bucket, counts]) => {
			const top = [...counts.entries()]
				.sort(([, left], [, right]) => right - left)
				.slice(0, 4)
				.map(([name, ms]) => `${name} ${Math.round(ms)}`)
				.join(', ');
			return `${String(bucket * 250).padStart(5)} ms  ${top}`;
		});
}
