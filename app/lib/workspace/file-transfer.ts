import type { Workspace } from './workspace.svelte.js';

/** Drops of files (and of folders, where the browser exposes their entries) become workspace files. */
export async function uploadDroppedItems(
	workspace: Workspace,
	transfer: DataTransfer,
	folder: string
): Promise<string[]> {
	const created: string[] = [];
	const prefix = folder ? `${folder}/` : '';
	const entries = [...transfer.items]
		.map((item) => (typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null))
		.filter((entry): entry is FileSystemEntry => entry !== null);
	if (entries.length === 0) {
		for (const file of transfer.files) {
			const path = await workspace.createFile(
				prefix + file.name,
				new Uint8Array(await file.arrayBuffer())
			);
			if (path) created.push(path);
		}
		return created;
	}
	const walk = async (entry: FileSystemEntry, base: string): Promise<void> => {
		if (entry.isFile) {
			const file = await new Promise<File>((resolve, reject) =>
				(entry as FileSystemFileEntry).file(resolve, reject)
			);
			const path = await workspace.createFile(
				base + entry.name,
				new Uint8Array(await file.arrayBuffer())
			);
			if (path) created.push(path);
		} else if (entry.isDirectory) {
			const reader = (entry as FileSystemDirectoryEntry).createReader();
			const children = await new Promise<FileSystemEntry[]>((resolve, reject) =>
				reader.readEntries(resolve, reject)
			);
			for (const child of children) await walk(child, `${base}${entry.name}/`);
		}
	};
	for (const entry of entries) await walk(entry, prefix);
	return created;
}

export function downloadBytes(
	name: string,
	bytes: Uint8Array,
	type = 'application/octet-stream'
): void {
	const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type }));
	const link = document.createElement('a');
	link.href = url;
	link.download = name;
	link.rel = 'noopener';
	document.body.append(link);
	link.click();
	link.remove();
	// Give the download a moment to start before the URL is released.
	setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export async function downloadWorkspaceFile(workspace: Workspace, path: string): Promise<void> {
	downloadBytes(path.split('/').pop() ?? 'file', await workspace.readFile(path));
}
