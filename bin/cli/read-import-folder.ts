import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { importLimits } from '../../hooks/importers/imported-scenario.js';
import { UsageError } from './usage-error.js';

const maximumFolders = 5_000;

/** Folders no importer reads: installed packages, build output, version control. */
const skippedFolders = new Set(['node_modules', '.git', 'dist', '.astro']);

/**
 * A source folder for an importer, bounded before anything is read: at most
 * importLimits.maximumFiles files, each and all together within the byte limits (sizes from
 * lstat, checked before the read). A symbolic link, a device or a pipe is refused naming the
 * entry: an importer never follows a link out of the folder it was given.
 */
export async function readImportFolder(folder: string): Promise<Map<string, Uint8Array>> {
	const info = await lstat(folder).catch(() => null);
	if (!info) throw new UsageError(`${folder} does not exist`);
	if (info.isSymbolicLink())
		throw new UsageError(`${folder} is a symbolic link; give the folder itself`);
	if (!info.isDirectory()) throw new UsageError(`${folder} is not a folder`);
	const files = new Map<string, Uint8Array>();
	let total = 0;
	let folders = 0;
	const walk = async (current: string, relative: string): Promise<void> => {
		const children = await readdir(current, { withFileTypes: true });
		children.sort((left, right) => left.name.localeCompare(right.name));
		for (const child of children) {
			const name = relative === '' ? child.name : `${relative}/${child.name}`;
			const path = join(current, child.name);
			if (child.isSymbolicLink())
				throw new UsageError(
					`${name} is a symbolic link; importers do not follow links (replace it with the file)`
				);
			if (child.isDirectory()) {
				if (skippedFolders.has(child.name)) continue;
				// Empty folders cost a read each: a tree of nothing but folders is refused too.
				if (++folders > maximumFolders)
					throw new UsageError(
						`${folder} holds more than ${maximumFolders} folders; refusing at ${name}`
					);
				await walk(path, name);
				continue;
			}
			if (!child.isFile())
				throw new UsageError(`${name} is not a file or a folder (a device, socket or pipe)`);
			if (files.size >= importLimits.maximumFiles)
				throw new UsageError(
					`${folder} holds more than ${importLimits.maximumFiles} files; refusing at ${name}`
				);
			const size = (await lstat(path)).size;
			if (size > importLimits.maximumFileBytes)
				throw new UsageError(
					`${name} is ${size} bytes; at most ${importLimits.maximumFileBytes / (1024 * 1024)} MB per file`
				);
			total += size;
			if (total > importLimits.maximumTotalBytes)
				throw new UsageError(
					`${name} makes ${folder} larger than ${importLimits.maximumTotalBytes / (1024 * 1024)} MB`
				);
			const buffer = await readFile(path);
			files.set(name, new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength));
		}
	};
	await walk(folder, '');
	return files;
}
