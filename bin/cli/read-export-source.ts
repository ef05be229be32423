import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { readExportFiles, unzipEntries } from '../../hooks/ledger/read-export.js';
import { UsageError } from './usage-error.js';

export type LoadedExport = Exclude<ReturnType<typeof readExportFiles>, { error: string }>;

/** Every file under `folder` as workspace-relative POSIX paths (`.git/` and `node_modules/` skipped). */
export async function readFolderEntries(folder: string): Promise<Map<string, Uint8Array>> {
	const entries = new Map<string, Uint8Array>();
	const walk = async (current: string): Promise<void> => {
		for (const child of await readdir(current, { withFileTypes: true })) {
			const path = join(current, child.name);
			if (child.isDirectory()) {
				if (child.name === '.git' || child.name === 'node_modules') continue;
				await walk(path);
			} else if (child.isFile()) {
				entries.set(
					relative(folder, path).split(sep).join('/'),
					new Uint8Array(await readFile(path))
				);
			}
		}
	};
	await walk(folder);
	return entries;
}

/** Loads one export from a folder or a .zip, or explains why it is not one. */
export async function loadExport(source: string): Promise<LoadedExport> {
	const info = await stat(source).catch(() => null);
	if (!info) throw new UsageError(`${source} does not exist`);
	let entries: Map<string, Uint8Array>;
	if (info.isDirectory()) {
		entries = await readFolderEntries(source);
	} else {
		try {
			entries = unzipEntries(new Uint8Array(await readFile(source)));
		} catch (error) {
			throw new UsageError(`${source} is not a readable zip: ${(error as Error).message}`);
		}
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
