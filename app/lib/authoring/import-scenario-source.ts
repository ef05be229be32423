import { zipEntries } from '../../../hooks/ledger/read-export.js';
import { importClassroomAutograding } from '../../../hooks/importers/classroom-autograding.js';
import { importLimits, type ImportResult } from '../../../hooks/importers/imported-scenario.js';
import { importTutorialKit } from '../../../hooks/importers/tutorialkit.js';
import { readScenarioZip } from '../../../hooks/scenarios/scenario-zip.js';
import { readZip, type ZipLimits } from '../../../hooks/zip/read-zip.js';

/**
 * The workbench's "Import…": the same converters as `threadline import` (hooks/importers/), on
 * what the author picked — a TutorialKit folder (the browser's folder picker), a zip of one, or a
 * Classroom `autograding.json` — giving the scenario as a zip to download and the list of what
 * could not be carried. Sizes are checked before any file is read.
 */

/** A picked file: its path inside the picked folder (or its name) and how to read it. */
export interface PickedFile {
	path: string;
	size: number;
	read(): Promise<Uint8Array>;
}

export type WorkbenchImport =
	| { ok: true; zip: Uint8Array; fileName: string; notCarried: string[] }
	| { ok: false; problem: string };

const skippedFolders = new Set(['node_modules', '.git', 'dist', '.astro']);

const importZipLimits: ZipLimits = {
	maximumEntries: importLimits.maximumFiles,
	maximumTotalBytes: importLimits.maximumTotalBytes,
	maximumEntryBytes: importLimits.maximumFileBytes,
	maximumRatio: 200,
	ratioCheckFromBytes: 1024 * 1024
};

/** Drops the one folder every path starts with (a picked folder's name, a zip's top folder). */
function withoutCommonFolder(entries: Map<string, Uint8Array>): Map<string, Uint8Array> {
	const tops = new Set(
		[...entries.keys()].map((path) => (path.includes('/') ? path.split('/')[0] : null))
	);
	if (tops.size !== 1 || tops.has(null)) return entries;
	const top = `${[...tops][0]}/`;
	return new Map([...entries].map(([path, bytes]) => [path.slice(top.length), bytes]));
}

function skipped(path: string): boolean {
	return path.split('/').some((segment) => skippedFolders.has(segment));
}

export async function importPickedFiles(picked: readonly PickedFile[]): Promise<WorkbenchImport> {
	if (picked.length === 0) return { ok: false, problem: 'nothing was picked' };
	const files = picked.filter((file) => !skipped(file.path));
	if (files.length > importLimits.maximumFiles)
		return { ok: false, problem: `the folder holds more than ${importLimits.maximumFiles} files` };
	let total = 0;
	for (const file of files) {
		if (file.size > importLimits.maximumFileBytes)
			return {
				ok: false,
				problem: `${file.path} is ${file.size} bytes; at most ${importLimits.maximumFileBytes / (1024 * 1024)} MB per file`
			};
		total += file.size;
		if (total > importLimits.maximumTotalBytes)
			return {
				ok: false,
				problem: `${file.path} makes the folder larger than ${importLimits.maximumTotalBytes / (1024 * 1024)} MB`
			};
	}
	let result: ImportResult;
	const single = files.length === 1 ? files[0] : undefined;
	if (single && /\.json$/i.test(single.path)) {
		result = importClassroomAutograding(new TextDecoder().decode(await single.read()));
	} else if (single && /\.zip$/i.test(single.path)) {
		let entries: Map<string, Uint8Array>;
		try {
			entries = new Map();
			for (const entry of readZip(await single.read(), importZipLimits)) {
				if (entry.kind === 'link')
					return {
						ok: false,
						problem: `${entry.path} is a symbolic link; importers do not follow links`
					};
				if (entry.kind === 'file' && !skipped(entry.path)) entries.set(entry.path, entry.content);
			}
		} catch (error) {
			return {
				ok: false,
				problem: `${single.path} is not a readable zip: ${(error as Error).message}`
			};
		}
		result = importTutorialKit(withoutCommonFolder(entries));
	} else {
		const entries = new Map<string, Uint8Array>();
		for (const file of files) entries.set(file.path, await file.read());
		result = importTutorialKit(withoutCommonFolder(entries));
	}
	if (!result.ok) return result;
	const id =
		/^id: (.*)$/m.exec(new TextDecoder().decode(result.entries.get('scenario.yaml')))?.[1] ??
		'imported';
	const zip = zipEntries(
		new Map([...result.entries].map(([path, bytes]) => [`${id}/${path}`, bytes]))
	);
	// Read back as a remote scenario zip would be: what is offered for download is known to load.
	const readBack = readScenarioZip(zip);
	if (!readBack.bundle)
		return {
			ok: false,
			problem: readBack.problems.map((problem) => `${problem.file}: ${problem.message}`).join('; ')
		};
	return { ok: true, zip, fileName: `${id}.zip`, notCarried: result.notCarried };
}
