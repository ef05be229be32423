import { unzipSync, zipSync, type Zippable } from 'fflate';

export interface ExportFiles {
	auditJsonl: string;
	traceJsonl: string;
	/** The workspace: every file outside `.orchestration/`, by relative path. */
	files: Map<string, Uint8Array>;
	/** The files of `.orchestration/` by their path inside it, as text. */
	orchestration: Map<string, string>;
}

const orchestrationFolder = '.orchestration/';
const auditName = 'audit.jsonl';
const traceName = 'agent_trace.jsonl';
const decoder = new TextDecoder();
/** 1980-01-01, the earliest date a zip can hold: no clock, reproducible bytes. */
const fixedZipDate = new Date(1980, 0, 1, 12, 0, 0);

/**
 * Finds an export in the entries of a folder or a zip. The export's root is either the top level
 * or one folder down (zips of a folder usually carry its name); entries outside that root, like a
 * zip tool's `__MACOSX/`, are ignored.
 */
export function readExportFiles(entries: Map<string, Uint8Array>): ExportFiles | { error: string } {
	const normalised = new Map<string, Uint8Array>();
	for (const [path, content] of entries) {
		const clean = path.replaceAll('\\', '/').replace(/^(\.\/)+/, '');
		if (clean === '' || clean.endsWith('/')) continue;
		normalised.set(clean, content);
	}

	const roots = new Set<string>();
	for (const path of normalised.keys()) {
		const match = /^(?:([^/]+)\/)?\.orchestration\/audit\.jsonl$/.exec(path);
		if (match) roots.add(match[1] === undefined ? '' : `${match[1]}/`);
	}
	if (roots.size === 0) {
		return {
			error: `no ${orchestrationFolder}${auditName} found (looked at the top level and one folder down); is this a Threadline export?`
		};
	}
	// A root-level export wins over folders next to it; several folders are ambiguous.
	if (roots.size > 1 && !roots.has('')) {
		const names = [...roots]
			.sort()
			.map((name) => `"${name}"`)
			.join(', ');
		return { error: `several exports found (${names}); give one export at a time` };
	}
	const root = roots.has('') ? '' : ([...roots][0] as string);
	const auditBytes = normalised.get(`${root}${orchestrationFolder}${auditName}`);
	const traceBytes = normalised.get(`${root}${orchestrationFolder}${traceName}`);
	if (!auditBytes) return { error: `no ${orchestrationFolder}${auditName} found` };
	if (!traceBytes) {
		return {
			error: `${root}${orchestrationFolder}${auditName} is there but ${root}${orchestrationFolder}${traceName} is missing`
		};
	}

	const files = new Map<string, Uint8Array>();
	const orchestration = new Map<string, string>();
	for (const [path, content] of normalised) {
		if (!path.startsWith(root)) continue;
		const relative = path.slice(root.length);
		if (relative.startsWith(orchestrationFolder)) {
			orchestration.set(relative.slice(orchestrationFolder.length), decoder.decode(content));
		} else {
			files.set(relative, content);
		}
	}
	return {
		auditJsonl: decoder.decode(auditBytes),
		traceJsonl: decoder.decode(traceBytes),
		files,
		orchestration
	};
}

/** Refuses paths that could land outside the folder they are unpacked into. */
function assertSafeEntryPath(path: string, where: string): void {
	const slashed = path.replaceAll('\\', '/');
	const unsafe =
		slashed.startsWith('/') ||
		/^[A-Za-z]:/.test(slashed) ||
		slashed.split('/').includes('..') ||
		slashed.includes('\0');
	if (unsafe) {
		throw new Error(
			`${where} entry "${path}" has an unsafe path (absolute or containing ".."); refusing it`
		);
	}
}

/** The files of a zip by path (folders left out). Throws on a corrupt zip or an unsafe path. */
export function unzipEntries(bytes: Uint8Array): Map<string, Uint8Array> {
	let unpacked: Record<string, Uint8Array>;
	try {
		unpacked = unzipSync(bytes);
	} catch (error) {
		throw new Error(`not a readable zip file (${(error as Error).message})`, { cause: error });
	}
	const entries = new Map<string, Uint8Array>();
	for (const [path, content] of Object.entries(unpacked)) {
		assertSafeEntryPath(path, 'zip');
		if (path.endsWith('/') || path.endsWith('\\')) continue;
		entries.set(path.replaceAll('\\', '/'), content);
	}
	return entries;
}

/**
 * A zip of the entries, in path order with a fixed date, so the same files always give the same
 * bytes. Throws on an unsafe path.
 */
export function zipEntries(entries: Map<string, Uint8Array>): Uint8Array {
	const zippable: Zippable = {};
	for (const path of [...entries.keys()].sort()) {
		assertSafeEntryPath(path, 'zip');
		if (path === '' || path.endsWith('/')) throw new Error(`zip entry "${path}" has no file name`);
		zippable[path] = [entries.get(path) as Uint8Array, {}];
	}
	// Level 1: exports are large JSON lines; speed matters more than the last few percent of size.
	return zipSync(zippable, { mtime: fixedZipDate, level: 1 });
}
