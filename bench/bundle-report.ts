import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * What a browser downloads before the IDE route can run: the static-import closure of SvelteKit's
 * start/app entries, the root layout and the route's page node, gzip-compressed. Everything behind
 * a dynamic `import()` (Monaco, xterm, just-bash, QuickJS) is listed separately as lazy.
 */
interface ManifestChunk {
	file: string;
	name?: string;
	src?: string;
	isEntry?: boolean;
	imports?: string[];
	dynamicImports?: string[];
	css?: string[];
}

export interface BundleReport {
	route: string;
	initial_js_gzip_kb: number;
	initial_css_gzip_kb: number;
	initial_files: { file: string; gzip_kb: number }[];
	largest_lazy_chunks: { file: string; gzip_kb: number }[];
	lazy_js_gzip_kb_total: number;
	budget: { initial_js_gzip_kb: number };
	within_budget: boolean;
}

const clientFolder = '.svelte-kit/output/client';
const kilobytes = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

export function bundleReport(root = process.cwd(), route = '/'): BundleReport {
	const manifestPath = join(root, clientFolder, '.vite/manifest.json');
	if (!existsSync(manifestPath))
		throw new Error(`${manifestPath} is missing: run \`npm run build\` first`);
	const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
	const appSource = readFileSync(
		join(root, '.svelte-kit/generated/client-optimized/app.js'),
		'utf8'
	);
	// `dictionary` maps a route id to [page node, …layout nodes]; layouts may be negative-encoded.
	const dictionary = /dictionary\s*=\s*(\{[\s\S]*?\});/.exec(appSource)?.[1] ?? '{}';
	const nodesOfRoute = new Function(`return ${dictionary}`)()[route] as number[] | undefined;
	if (!nodesOfRoute) throw new Error(`route ${route} is not in the client dictionary`);
	const nodeNames = [
		'nodes/0',
		...nodesOfRoute.filter((node) => node !== undefined).map((node) => `nodes/${Math.abs(node)}`)
	];

	const byName = new Map(
		Object.entries(manifest).map(([key, chunk]) => [chunk.name ?? key, { key, chunk }])
	);
	const roots = ['entry/start', 'entry/app', ...nodeNames]
		.map((name) => byName.get(name)?.key)
		.filter((key): key is string => Boolean(key));
	const initial = new Set<string>();
	const css = new Set<string>();
	const visit = (key: string) => {
		if (initial.has(key)) return;
		const chunk = manifest[key];
		if (!chunk) return;
		initial.add(key);
		for (const sheet of chunk.css ?? []) css.add(sheet);
		for (const imported of chunk.imports ?? []) visit(imported);
	};
	for (const key of roots) visit(key);

	const gzipOf = (file: string) =>
		gzipSync(readFileSync(join(root, clientFolder, file)), { level: 9 }).byteLength;
	const initialFiles = [...initial].map((key) => ({
		file: (manifest[key] as ManifestChunk).file,
		bytes: gzipOf((manifest[key] as ManifestChunk).file)
	}));
	const initialJs = initialFiles.reduce((sum, entry) => sum + entry.bytes, 0);
	const initialCss = [...css].reduce((sum, file) => sum + gzipOf(file), 0);
	const lazy = Object.entries(manifest)
		.filter(([key, chunk]) => !initial.has(key) && chunk.file.endsWith('.js'))
		.map(([, chunk]) => ({ file: chunk.file, bytes: gzipOf(chunk.file) }))
		.sort((left, right) => right.bytes - left.bytes);
	const budgetKb = 250;
	return {
		route,
		initial_js_gzip_kb: kilobytes(initialJs),
		initial_css_gzip_kb: kilobytes(initialCss),
		initial_files: initialFiles
			.sort((left, right) => right.bytes - left.bytes)
			.map((entry) => ({ file: entry.file, gzip_kb: kilobytes(entry.bytes) })),
		largest_lazy_chunks: lazy
			.slice(0, 8)
			.map((entry) => ({ file: entry.file, gzip_kb: kilobytes(entry.bytes) })),
		lazy_js_gzip_kb_total: kilobytes(lazy.reduce((sum, entry) => sum + entry.bytes, 0)),
		budget: { initial_js_gzip_kb: budgetKb },
		within_budget: initialJs / 1024 <= budgetKb
	};
}
