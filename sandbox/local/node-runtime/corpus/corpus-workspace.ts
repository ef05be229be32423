import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minimatch } from 'minimatch';

/**
 * The corpus (corpus.json): real npm packages whose published tarballs carry their own
 * node:test suites, pinned as exact devDependencies. Nothing of theirs is copied into this
 * repository: a library's workspace is built from node_modules when the corpus runs. Node-only.
 */

export interface CorpusLibrary {
	name: string;
	version: string;
	license: string;
	repository: string;
	credit: string;
	/** Globs, relative to the package folder. */
	tests: string[];
	/** Test files the globs match that are left out, with the reason. */
	excluded: Record<string, string>;
}

export interface CorpusManifest {
	about: string;
	libraries: CorpusLibrary[];
}

export interface CorpusWorkspace {
	/** Workspace-relative path → bytes: the package at the root, its dependencies beside it. */
	files: Record<string, Uint8Array>;
	/** Workspace-relative test files, sorted. */
	testFiles: string[];
}

const corpusFolder = fileURLToPath(new URL('./', import.meta.url));
export const repositoryRoot = join(corpusFolder, '../../../..');

export function loadCorpusManifest(): CorpusManifest {
	return JSON.parse(readFileSync(join(corpusFolder, 'corpus.json'), 'utf8')) as CorpusManifest;
}

/** Licences the corpus may use: permissive ones only. */
export const permissiveLicences = new Set([
	'MIT',
	'ISC',
	'BSD-2-Clause',
	'BSD-3-Clause',
	'Apache-2.0'
]);

/**
 * The folder the installed package lives in, checked against the manifest: a version that
 * differs from the pin (an `npm install` that moved it) is an error, not a silent new corpus.
 */
export function installedPackageFolder(name: string, from = repositoryRoot): string {
	for (let folder = from; ; folder = join(folder, '..')) {
		const candidate = join(folder, 'node_modules', name);
		if (existsSync(join(candidate, 'package.json'))) return candidate;
		if (folder === join(folder, '..')) break;
	}
	throw new Error(`${name} is not installed (run npm ci): the corpus needs it in node_modules`);
}

function packageJson(folder: string): {
	name: string;
	version: string;
	license?: string;
	dependencies?: Record<string, string>;
} {
	return JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as ReturnType<
		typeof packageJson
	>;
}

function filesOf(folder: string): string[] {
	const out: string[] = [];
	const visit = (at: string) => {
		for (const name of readdirSync(at).sort()) {
			if (name === 'node_modules' || name === '.git') continue;
			const path = join(at, name);
			const stat = statSync(path);
			if (stat.isDirectory()) visit(path);
			else if (stat.isFile()) out.push(relative(folder, path).split('\\').join('/'));
		}
	};
	visit(folder);
	return out;
}

/**
 * Builds a library's workspace: its own files at the root and every runtime dependency
 * (transitively) under `<dependencyFolder>/<name>`. Real Node finds them there when the folder
 * is `node_modules`; the offline runtime does not read `node_modules` (see workspace-snapshot.ts)
 * and finds them as workspace packages by their package.json name, so the offline run uses
 * another folder name.
 */
export function corpusWorkspace(library: CorpusLibrary, dependencyFolder: string): CorpusWorkspace {
	const root = installedPackageFolder(library.name);
	const installed = packageJson(root);
	if (installed.version !== library.version) {
		throw new Error(
			`${library.name} ${installed.version} is installed but the corpus pins ${library.version} (run npm ci)`
		);
	}
	const files: Record<string, Uint8Array> = {};
	const ownFiles = filesOf(root);
	for (const path of ownFiles) files[path] = readFileSync(join(root, path));
	const copied = new Set<string>();
	const queue: { name: string; from: string }[] = Object.keys(installed.dependencies ?? {}).map(
		(name) => ({ name, from: root })
	);
	while (queue.length > 0) {
		const next = queue.shift();
		if (!next || copied.has(next.name)) continue;
		copied.add(next.name);
		const folder = installedPackageFolder(next.name, next.from);
		for (const path of filesOf(folder)) {
			files[`${dependencyFolder}/${next.name}/${path}`] = readFileSync(join(folder, path));
		}
		for (const name of Object.keys(packageJson(folder).dependencies ?? {})) {
			queue.push({ name, from: folder });
		}
	}
	const testFiles = ownFiles
		.filter((path) => library.tests.some((pattern) => minimatch(path, pattern)))
		.filter((path) => !(path in library.excluded))
		.sort();
	return { files, testFiles };
}
