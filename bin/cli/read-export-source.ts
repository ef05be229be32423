import { lstat, readdir, readFile, readlink, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import {
	readExportFiles,
	unzipExportWith,
	type ExportEntries
} from '../../hooks/ledger/read-export.js';
import { boundedInflateWith } from '../../hooks/zip/sync-native-inflate.js';
import { exportZipLimits } from '../../hooks/zip/read-zip.js';
import { readFileShared } from './read-file-shared.js';
import { UsageError } from './usage-error.js';

export type LoadedExport = Exclude<ReturnType<typeof readExportFiles>, { error: string }>;

/**
 * Zips are inflated by node:zlib, bounded by each entry's declared size (about twice as fast as
 * fflate for a large export: sync-native-inflate.ts), with the same checks as everywhere else.
 */
const zlibInflate = boundedInflateWith((packed, maximumOutput) => {
	try {
		const output = inflateRawSync(packed, { maxOutputLength: maximumOutput });
		return new Uint8Array(output.buffer, output.byteOffset, output.byteLength);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return 'too-large';
		throw error;
	}
});

/** The ledger's files: audit.jsonl and agent_trace.jsonl (the largest by far). */
const ledgerFile = /^\.orchestration\/[^/]+\.jsonl$/;

/** Folders nobody records (installed packages): neither snapshotted by replay nor read here. */
export const unrecordedFolders = new Set(['node_modules']);

/**
 * Every file and symbolic link under `folder` as workspace-relative POSIX paths. Links are read,
 * never followed (a link to `../../.git` must not pull another folder into the export); `.git/`
 * is read like any folder, since verify checks it against the starting snapshot; only
 * `node_modules/` is skipped. The same size limits as a zip apply, so a hostile folder cannot
 * exhaust memory either.
 */
export async function readFolderExport(folder: string): Promise<Required<ExportEntries>> {
	const files = new Map<string, Uint8Array>();
	const links = new Map<string, string>();
	let total = 0;
	const walk = async (current: string): Promise<void> => {
		for (const child of await readdir(current, { withFileTypes: true })) {
			const path = join(current, child.name);
			const name = relative(folder, path).split(sep).join('/');
			if (files.size + links.size >= exportZipLimits.maximumEntries) {
				throw new UsageError(
					`${folder} holds more than ${exportZipLimits.maximumEntries} files; that is not an export`
				);
			}
			if (child.isSymbolicLink()) {
				links.set(name, await readlink(path));
			} else if (child.isDirectory()) {
				if (unrecordedFolders.has(child.name)) continue;
				await walk(path);
			} else if (child.isFile()) {
				const size = (await lstat(path)).size;
				total += size;
				if (size > exportZipLimits.maximumEntryBytes || total > exportZipLimits.maximumTotalBytes) {
					throw new UsageError(
						`${name} makes the export larger than ${exportZipLimits.maximumTotalBytes / (1024 * 1024)} MB (or one file over ${exportZipLimits.maximumEntryBytes / (1024 * 1024)} MB); refusing to read it`
					);
				}
				if (ledgerFile.test(name)) {
					// Straight into memory verify's helper thread shares (read-file-shared.ts).
					files.set(name, await readFileShared(path));
				} else {
					// A view of the Buffer, not a copy.
					const buffer = await readFile(path);
					files.set(name, new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength));
				}
			} else {
				throw new UsageError(
					`${name} is not a file, a folder or a link (a device, socket or pipe)`
				);
			}
		}
	};
	await walk(folder);
	return { files, links };
}

/** The files under `folder` (links left out); see `readFolderExport`. */
export async function readFolderEntries(folder: string): Promise<Map<string, Uint8Array>> {
	return (await readFolderExport(folder)).files;
}

/** Loads one export from a folder or a .zip, or explains why it is not one. */
export async function loadExport(source: string): Promise<LoadedExport> {
	const info = await stat(source).catch(() => null);
	if (!info) throw new UsageError(`${source} does not exist`);
	let entries: ExportEntries;
	try {
		if (info.isDirectory()) {
			entries = await readFolderExport(source);
		} else {
			if (info.size > exportZipLimits.maximumTotalBytes) {
				throw new UsageError(
					`${source} is larger than ${exportZipLimits.maximumTotalBytes / (1024 * 1024)} MB`
				);
			}
			try {
				entries = await unzipExportWith(new Uint8Array(await readFile(source)), zlibInflate);
			} catch (error) {
				throw new UsageError(`${source} is not a readable export zip: ${(error as Error).message}`);
			}
		}
	} catch (error) {
		if (error instanceof UsageError) throw error;
		const code = (error as NodeJS.ErrnoException).code;
		throw new UsageError(`cannot read ${source}: ${code ?? (error as Error).message}`);
	}
	const loaded = readExportFiles(entries);
	if ('error' in loaded) throw new UsageError(`${source}: ${loaded.error}`);
	return loaded;
}

/** For batch grading: the exports (sub-folders with .orchestration/, or .zip files) inside a folder. */
export async function findExports(folder: string): Promise<string[] | null> {
	const info = await stat(folder).catch(() => null);
	if (!info?.isDirectory()) return null;
	const own = await stat(join(folder, '.orchestration', 'audit.jsonl')).catch(() => null);
	if (own) return null;
	const found: string[] = [];
	for (const child of await readdir(folder, { withFileTypes: true })) {
		const path = join(folder, child.name);
		if (child.isFile() && child.name.toLowerCase().endsWith('.zip')) found.push(path);
		else if (
			child.isDirectory() &&
			(await stat(join(path, '.orchestration', 'audit.jsonl')).catch(() => null))
		)
			found.push(path);
	}
	return found.length ? found.sort() : null;
}
