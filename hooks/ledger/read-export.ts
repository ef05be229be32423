import { deflateSync, zipSync, type Zippable } from 'fflate';
import { EntryPathSet, canonicalEntryPath } from '../paths/normalize-path.js';
import { nativeInflate } from '../zip/native-inflate.js';
import {
	exportZipLimits,
	readZip,
	readZipWith,
	ZipReadError,
	type BoundedInflate,
	type ZipEntry,
	type ZipLimits
} from '../zip/read-zip.js';

export interface ExportFiles {
	/** The chained files as text, decoded when first read (65 MB for a 100k-event ledger). */
	readonly auditJsonl: string;
	readonly traceJsonl: string;
	/** The workspace: every file outside `.orchestration/`, by relative path. */
	files: Map<string, Uint8Array>;
	/** Symbolic links of the workspace (never followed), by path, to their target as written. */
	links: Map<string, string>;
	/** The files of `.orchestration/` by their path inside it, as text (the two jsonl files apart). */
	orchestration: Map<string, string>;
	/** The same files as bytes, for verify's byte-for-byte checks. */
	orchestrationFiles: Map<string, Uint8Array>;
}

/** The entries of a folder or a zip: files by path, and links (path → target), never followed. */
export interface ExportEntries {
	files: Map<string, Uint8Array>;
	links?: Map<string, string>;
}

const orchestrationFolder = '.orchestration/';
const auditName = 'audit.jsonl';
const traceName = 'agent_trace.jsonl';
const decoder = new TextDecoder();
/** 1980-01-01, the earliest date a zip can hold: no clock, reproducible bytes. */
const fixedZipDate = new Date(1980, 0, 1, 12, 0, 0);
/** Zip tools' litter that is not part of anyone's export. */
const ignoredTopFolder = '__MACOSX/';
/** Unix "made by" and a symbolic link's mode, as `zip -y` and Info-ZIP write them. */
const unixOs = 3;
const symbolicLinkAttributes = (0o120777 << 16) >>> 0;

/**
 * Finds an export in the entries of a folder or a zip. The export's root is either the top level
 * or one folder down (zips of a folder usually carry its name). Every name must be canonical and
 * unique (see `canonicalEntryPath`): an export with `src\db\users.ts`, `./x`, `a//b`, `..`, an
 * absolute path or two entries for one file is refused, naming the entry, so what verify checks is
 * what any unzip tool extracts. Entries outside the root are refused too (only `__MACOSX/` is
 * ignored): verify never says OK about files it did not look at.
 */
export function readExportFiles(
	input: Map<string, Uint8Array> | ExportEntries
): ExportFiles | { error: string } {
	const source: ExportEntries = input instanceof Map ? { files: input } : input;
	const names = new EntryPathSet();
	const all = new Map<string, { content: Uint8Array } | { link: string }>();
	for (const [name, content] of source.files) {
		if (name.startsWith(ignoredTopFolder)) continue;
		const added = names.add(name);
		if (!added.ok) return { error: `invalid export: ${added.reason}` };
		all.set(added.path, { content });
	}
	for (const [name, target] of source.links ?? []) {
		if (name.startsWith(ignoredTopFolder)) continue;
		const added = names.add(name);
		if (!added.ok) return { error: `invalid export: ${added.reason}` };
		all.set(added.path, { link: target });
	}

	const roots = new Set<string>();
	for (const path of all.keys()) {
		const match = /^(?:([^/]+)\/)?\.orchestration\/audit\.jsonl$/.exec(path);
		if (match) roots.add(match[1] === undefined ? '' : `${match[1]}/`);
	}
	if (roots.size === 0) {
		return {
			error: `no ${orchestrationFolder}${auditName} found (looked at the top level and one folder down); is this a Threadline export?`
		};
	}
	// A root-level export wins over folders next to it (they are its workspace files); several
	// folders are ambiguous.
	if (roots.size > 1 && !roots.has('')) {
		const names = [...roots]
			.sort()
			.map((name) => `"${name}"`)
			.join(', ');
		return { error: `several exports found (${names}); give one export at a time` };
	}
	const root = roots.has('') ? '' : ([...roots][0] as string);
	const auditEntry = all.get(`${root}${orchestrationFolder}${auditName}`);
	const traceEntry = all.get(`${root}${orchestrationFolder}${traceName}`);
	if (!auditEntry) return { error: `no ${orchestrationFolder}${auditName} found` };
	if (!traceEntry) {
		return {
			error: `${root}${orchestrationFolder}${auditName} is there but ${root}${orchestrationFolder}${traceName} is missing`
		};
	}

	const files = new Map<string, Uint8Array>();
	const links = new Map<string, string>();
	const orchestration = new Map<string, string>();
	const orchestrationFiles = new Map<string, Uint8Array>();
	for (const [path, entry] of all) {
		if (!path.startsWith(root)) {
			return {
				error: `invalid export: entry "${path}" lies outside the export's folder "${root.slice(0, -1)}"`
			};
		}
		const relative = path.slice(root.length);
		if (relative.startsWith(orchestrationFolder)) {
			if ('link' in entry) {
				return { error: `invalid export: ${path} is a symbolic link inside .orchestration/` };
			}
			const name = relative.slice(orchestrationFolder.length);
			if (name !== auditName && name !== traceName)
				orchestration.set(name, decoder.decode(entry.content));
			orchestrationFiles.set(name, entry.content);
		} else if ('link' in entry) {
			links.set(relative, entry.link);
		} else {
			files.set(relative, entry.content);
		}
	}
	// Decoded on first use: verify reads the bytes line by line instead (see JsonlLineReader).
	const lazyText = (name: string) => {
		let text: string | undefined;
		return () => (text ??= decoder.decode(orchestrationFiles.get(name) ?? new Uint8Array(0)));
	};
	const auditText = lazyText(auditName);
	const traceText = lazyText(traceName);
	return {
		get auditJsonl() {
			return auditText();
		},
		get traceJsonl() {
			return traceText();
		},
		files,
		links,
		orchestration,
		orchestrationFiles
	};
}

/**
 * The files and links of an untrusted zip (folders left out), within `limits`. Throws an Error
 * whose message names the offending entry: a corrupt zip, a limit exceeded (entries, sizes,
 * compression ratio), a name that is not canonical, or two entries for one file.
 */
export function unzipExport(
	bytes: Uint8Array,
	limits: ZipLimits = exportZipLimits
): Required<ExportEntries> {
	let entries;
	try {
		entries = readZip(bytes, limits);
	} catch (error) {
		throw unreadableZip(error);
	}
	return exportEntries(entries);
}

/**
 * unzipExport inflating with the platform's native inflater where it has one (DecompressionStream;
 * the grading Worker reads exports ~10× faster with it), else as unzipExport does.
 */
export async function unzipExportNatively(
	bytes: Uint8Array,
	limits: ZipLimits = exportZipLimits
): Promise<Required<ExportEntries>> {
	const inflate = nativeInflate();
	if (!inflate) return unzipExport(bytes, limits);
	return unzipExportWith(bytes, inflate, limits);
}

/** unzipExport inflating with `inflate` (a native one: native-inflate.ts, sync-native-inflate.ts). */
export async function unzipExportWith(
	bytes: Uint8Array,
	inflate: BoundedInflate,
	limits: ZipLimits = exportZipLimits
): Promise<Required<ExportEntries>> {
	let entries;
	try {
		entries = await readZipWith(bytes, limits, inflate);
	} catch (error) {
		throw unreadableZip(error);
	}
	return exportEntries(entries);
}

function unreadableZip(error: unknown): Error {
	if (error instanceof ZipReadError) return new Error(error.message, { cause: error });
	return new Error(`not a readable zip file (${(error as Error).message})`, { cause: error });
}

function exportEntries(entries: readonly ZipEntry[]): Required<ExportEntries> {
	const files = new Map<string, Uint8Array>();
	const links = new Map<string, string>();
	for (const entry of entries) {
		if (entry.kind === 'file') files.set(entry.path, entry.content);
		else if (entry.kind === 'link') links.set(entry.path, decoder.decode(entry.content));
	}
	return { files, links };
}

/** The files of a zip by path (folders and links left out); see `unzipExport`. */
export function unzipEntries(bytes: Uint8Array, limits?: ZipLimits): Map<string, Uint8Array> {
	return unzipExport(bytes, limits).files;
}

/**
 * A zip of the entries, in path order with a fixed date, so the same files always give the same
 * bytes. Links are stored as links (Unix mode 120777, the target as content), as `zip -y` does.
 * Throws on a path that is not canonical.
 */
export function zipEntries(
	entries: Map<string, Uint8Array>,
	links: ReadonlyMap<string, string> = new Map()
): Uint8Array {
	const zippable: Zippable = {};
	const encoder = new TextEncoder();
	const all = new Map<string, [Uint8Array, { os?: number; attrs?: number; level?: 0 }]>();
	for (const [path, content] of entries) {
		all.set(path, [content, packsTooTight(content) ? { level: 0 } : {}]);
	}
	for (const [path, target] of links) {
		all.set(path, [encoder.encode(target), { os: unixOs, attrs: symbolicLinkAttributes }]);
	}
	for (const path of [...all.keys()].sort()) {
		const canonical = canonicalEntryPath(path);
		if (!canonical.ok) throw new Error(`zip entry has an unsafe path: ${canonical.reason}`);
		zippable[path] = all.get(path) as [Uint8Array, { os?: number; attrs?: number; level?: 0 }];
	}
	// Level 1: exports are large JSON lines; speed matters more than the last few percent of size.
	return zipSync(zippable, { mtime: fixedZipDate, level: 1 });
}

/**
 * A file the strict reader would refuse once packed (1 MiB or more unpacking over 200×, a zip
 * bomb's shape: a file of zeros, a log of one repeated line) is stored as it is instead, so every
 * zip this writes reads back in Import, /grade and `threadline verify`.
 */
function packsTooTight(content: Uint8Array): boolean {
	if (content.length < exportZipLimits.ratioCheckFromBytes) return false;
	const packed = deflateSync(content, { level: 1 }).length;
	return content.length > exportZipLimits.maximumRatio * Math.max(packed, 1);
}
