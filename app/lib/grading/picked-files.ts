import type { PickedFile } from './group-exports.js';

/** Files of an <input> (with `webkitRelativePath` for a picked folder). */
export function pickedFromInput(files: FileList | null): PickedFile<Blob>[] {
	return [...(files ?? [])].map((file) => ({
		path: file.webkitRelativePath || file.name,
		content: file
	}));
}

/** Files of a drop, walking dropped folders (FileSystemEntry) to their relative paths. */
export async function pickedFromDrop(transfer: DataTransfer): Promise<PickedFile<Blob>[]> {
	const entries = [...transfer.items]
		.map((item) => item.webkitGetAsEntry?.())
		.filter((entry): entry is FileSystemEntry => Boolean(entry));
	if (entries.length === 0) return pickedFromInput(transfer.files);
	const picked: PickedFile<Blob>[] = [];
	const walk = async (entry: FileSystemEntry, prefix: string): Promise<void> => {
		if (entry.isFile) {
			const file = await new Promise<File>((resolve, reject) =>
				(entry as FileSystemFileEntry).file(resolve, reject)
			);
			picked.push({ path: prefix + entry.name, content: file });
		} else if (entry.isDirectory) {
			const reader = (entry as FileSystemDirectoryEntry).createReader();
			// readEntries returns the folder in batches; an empty batch is the end.
			for (;;) {
				const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
					reader.readEntries(resolve, reject)
				);
				if (batch.length === 0) break;
				for (const child of batch) await walk(child, `${prefix}${entry.name}/`);
			}
		}
	};
	for (const entry of entries) await walk(entry, '');
	return picked;
}
