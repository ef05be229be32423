import { lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import {
	importClassroomAutograding,
	classroomLimits
} from '../../hooks/importers/classroom-autograding.js';
import type { ImportResult } from '../../hooks/importers/imported-scenario.js';
import { importTutorialKit } from '../../hooks/importers/tutorialkit.js';
import { parseArguments } from './parse-arguments.js';
import { readImportFolder } from './read-import-folder.js';
import { UsageError } from './usage-error.js';

type Output = { out(text: string): void; err(text: string): void };

/**
 * `threadline import tutorialkit <folder> --out <scenario-dir>` and `threadline import classroom
 * <autograding.json> --out <scenario-dir>`: a scenario folder from another tool's format (the
 * converters in hooks/importers/), checked by the scenario reader before it is written; what
 * could not be carried is printed. `--out` must not exist or be empty: nothing is overwritten.
 */
export async function importCommand(argv: string[], output: Output): Promise<number> {
	const [kind, ...rest] = argv;
	const { positional, values } = parseArguments(rest, { values: ['out', 'id', 'title'] });
	const usage =
		'threadline import tutorialkit <folder> --out <scenario-dir> | threadline import classroom <autograding.json> --out <scenario-dir> [--id <id>] [--title <title>]';
	if (
		(kind !== 'tutorialkit' && kind !== 'classroom') ||
		positional.length !== 1 ||
		!values.has('out')
	)
		throw new UsageError(`import takes a kind, a source and --out: ${usage}`);
	const source = positional[0] as string;
	const out = values.get('out') as string;
	await requireEmptyOutput(out);
	// A scenario's id is its folder's name (threadline validate checks it): --out names both.
	const id = values.get('id') ?? basename(resolve(out));
	let result: ImportResult;
	if (kind === 'tutorialkit') {
		result = importTutorialKit(await readImportFolder(source), { id });
	} else {
		const info = await lstat(source).catch(() => null);
		if (!info?.isFile()) throw new UsageError(`${source} is not a file`);
		if (info.size > classroomLimits.maximumFileBytes)
			throw new UsageError(
				`${source} is larger than ${classroomLimits.maximumFileBytes / 1024} KiB`
			);
		result = importClassroomAutograding(await readFile(source, 'utf8'), {
			id,
			title: values.get('title')
		});
	}
	if (!result.ok) throw new UsageError(`${source}: ${result.problem}`);
	for (const [path, bytes] of result.entries) {
		const target = join(out, ...path.split('/'));
		await mkdir(dirname(target), { recursive: true });
		await writeFile(target, bytes, { flag: 'wx' });
	}
	output.out(
		`wrote ${result.entries.size} file(s) to ${out}: a scenario (check it with threadline validate ${out})`
	);
	const written = /^id: (.*)$/m.exec(
		new TextDecoder().decode(result.entries.get('scenario.yaml'))
	)?.[1];
	if (written !== basename(resolve(out)))
		output.err(
			`note: the scenario's id is ${written}; rename the folder to ${written} before validating or publishing it`
		);
	if (result.notCarried.length > 0) {
		output.out(`not carried (${result.notCarried.length}):`);
		for (const line of result.notCarried) output.out(`  - ${line}`);
	}
	return 0;
}

async function requireEmptyOutput(out: string): Promise<void> {
	const info = await lstat(out).catch(() => null);
	if (!info) return;
	if (!info.isDirectory() || (await readdir(out)).length > 0)
		throw new UsageError(`${out} exists and is not an empty folder; nothing is overwritten`);
}
