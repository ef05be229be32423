import { unzipEntries, zipEntries } from '../../../hooks/ledger/read-export.js';
import { normalizeWorkspacePath } from '../../../hooks/paths/normalize-path.js';

/** The workspace as a zip, everything inside one folder named after the scenario. */
export function zipWorkspace(files: Iterable<[string, Uint8Array]>, folder: string): Uint8Array {
	const entries = new Map<string, Uint8Array>();
	for (const [path, bytes] of files) entries.set(`${folder}/${path}`, bytes);
	return zipEntries(entries);
}

/**
 * A zip's files as workspace files. A single top folder (as "Export zip" writes) is dropped;
 * entries whose paths are not usable workspace paths are skipped and counted.
 */
export function readWorkspaceZip(bytes: Uint8Array): {
	files: Record<string, Uint8Array>;
	skipped: string[];
} {
	const entries = unzipEntries(bytes);
	const paths = [...entries.keys()];
	const top = paths[0]?.split('/')[0];
	const prefix = top && paths.every((path) => path.startsWith(`${top}/`)) ? `${top}/` : '';
	const files: Record<string, Uint8Array> = {};
	const skipped: string[] = [];
	for (const [rawPath, content] of entries) {
		const normalised = normalizeWorkspacePath(rawPath.slice(prefix.length));
		if (!normalised.ok || normalised.path === '') skipped.push(rawPath);
		else files[normalised.path] = content;
	}
	return { files, skipped };
}
