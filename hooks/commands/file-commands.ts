/**
 * Commands whose whole purpose is to change files: removing, moving, copying, linking, writing,
 * changing permissions. All are destructive; `rm -r` (and `chmod -R`) on a catastrophic target is
 * critical.
 */
import { describeCatastrophicTarget } from './catastrophic-target.js';
import {
	commandName,
	isDiskDevice,
	isHarmlessDevice,
	type CommandContext,
	type CommandHandler
} from './command-analysis.js';
import { hasOption, optionValues, parseOptions } from './parse-options.js';

function analyzeRemove(argv: string[], { analysis }: CommandContext): void {
	const parsed = parseOptions(argv.slice(1));
	analysis.destructive('`rm` deletes files');
	const recursive = hasOption(parsed, 'r', 'R', 'recursive');
	for (const operand of parsed.operands) {
		analysis.write(operand);
		const catastrophic = recursive ? describeCatastrophicTarget(operand) : null;
		if (catastrophic !== null) {
			analysis.critical(`\`rm -r ${operand}\` would delete ${catastrophic.description}`);
		}
	}
}

function analyzeSimpleWriter(
	reason: string,
	shortWithValue = '',
	longWithValue: readonly string[] = []
): CommandHandler {
	return (argv, { analysis }) => {
		const parsed = parseOptions(argv.slice(1), { shortWithValue, longWithValue });
		analysis.destructive(reason);
		for (const operand of parsed.operands) analysis.write(operand);
	};
}

const moveOptions = { shortWithValue: 'tS', longWithValue: ['target-directory', 'suffix'] };

function analyzeMove(argv: string[], { analysis }: CommandContext): void {
	const parsed = parseOptions(argv.slice(1), moveOptions);
	analysis.destructive('`mv` moves or renames files');
	// Sources disappear and the destination is written, so every path counts.
	for (const operand of parsed.operands) analysis.write(operand);
	for (const directory of optionValues(parsed, 't', 'target-directory')) analysis.write(directory);
}

function analyzeCopy(argv: string[], { analysis }: CommandContext): void {
	const parsed = parseOptions(argv.slice(1), moveOptions);
	analysis.destructive('`cp` copies files and overwrites the destination');
	const directories = optionValues(parsed, 't', 'target-directory');
	for (const directory of directories) analysis.write(directory);
	const destination = parsed.operands.at(-1);
	if (directories.length === 0 && destination !== undefined && parsed.operands.length > 1) {
		analysis.write(destination);
	}
}

function analyzeLink(argv: string[], { analysis }: CommandContext): void {
	const parsed = parseOptions(argv.slice(1), moveOptions);
	analysis.destructive('`ln` creates links');
	const directories = optionValues(parsed, 't', 'target-directory');
	for (const directory of directories) analysis.write(directory);
	if (directories.length > 0) return;
	const operands = parsed.operands;
	if (operands.length > 1) analysis.write(operands.at(-1)!);
	else if (operands.length === 1)
		analysis.write(operands[0]!.replace(/\/+$/, '').split('/').at(-1)!);
}

function analyzeTee(argv: string[], { analysis }: CommandContext): void {
	const parsed = parseOptions(argv.slice(1));
	const files = parsed.operands.filter((operand) => !isHarmlessDevice(operand));
	if (files.length === 0) {
		analysis.readOnly('`tee` only copies its input to the output');
		return;
	}
	for (const file of files) {
		analysis.write(file);
		analysis.destructive(`\`tee\` writes to ${file}`);
	}
}

function analyzeChangeMode(argv: string[], context: CommandContext): void {
	const args = argv.slice(1);
	let recursive = false;
	let modeSeen = false;
	const files: string[] = [];
	for (const arg of args) {
		if (arg === '-R' || arg === '--recursive' || /^-[a-zA-Z]*R[a-zA-Z]*$/.test(arg)) {
			recursive = true;
		} else if (/^-[rwxXstugoa]+$/.test(arg) && !modeSeen) {
			// `chmod -x file`: a mode that looks like an option.
			modeSeen = true;
		} else if (arg.startsWith('-')) {
			if (arg.startsWith('--reference')) modeSeen = true;
		} else if (!modeSeen) {
			modeSeen = true;
		} else {
			files.push(arg);
		}
	}
	reportPermissionChange('`chmod` changes file permissions', 'chmod', recursive, files, context);
}

function analyzeChangeOwner(argv: string[], context: CommandContext): void {
	const name = commandName(argv[0]!);
	const parsed = parseOptions(argv.slice(1), { longWithValue: ['from'] });
	const recursive = hasOption(parsed, 'R', 'recursive');
	const files = hasOption(parsed, 'reference') ? parsed.operands : parsed.operands.slice(1);
	const reason = name === 'chgrp' ? '`chgrp` changes file groups' : '`chown` changes file owners';
	reportPermissionChange(reason, name, recursive, files, context);
}

function reportPermissionChange(
	reason: string,
	name: string,
	recursive: boolean,
	files: string[],
	{ analysis }: CommandContext
): void {
	analysis.destructive(reason);
	for (const file of files) {
		analysis.write(file);
		const catastrophic = recursive ? describeCatastrophicTarget(file) : null;
		if (
			catastrophic !== null &&
			catastrophic.kind !== 'working' &&
			catastrophic.kind !== 'parent'
		) {
			analysis.critical(`\`${name} -R\` on ${file} would change ${catastrophic.description}`);
		}
	}
}

function analyzeDiskDump(argv: string[], { analysis }: CommandContext): void {
	const output = argv
		.slice(1)
		.find((arg) => arg.startsWith('of='))
		?.slice(3);
	if (output === undefined) {
		analysis.destructive('`dd` copies raw data');
		return;
	}
	if (isHarmlessDevice(output)) {
		analysis.destructive('`dd` copies raw data');
		return;
	}
	analysis.write(output);
	if (isDiskDevice(output)) analysis.critical(`\`dd\` overwrites the device ${output}`);
	else analysis.destructive(`\`dd\` writes to ${output}`);
}

export const fileCommandHandlers: ReadonlyMap<string, CommandHandler> = new Map([
	['rm', analyzeRemove],
	['rmdir', analyzeSimpleWriter('`rmdir` deletes folders')],
	[
		'touch',
		analyzeSimpleWriter('`touch` creates or updates files', 'rtd', ['reference', 'date', 'time'])
	],
	['mkdir', analyzeSimpleWriter('`mkdir` creates folders', 'm', ['mode', 'context'])],
	['truncate', analyzeSimpleWriter('`truncate` changes file sizes', 'sr', ['size', 'reference'])],
	['mv', analyzeMove],
	['cp', analyzeCopy],
	['ln', analyzeLink],
	['tee', analyzeTee],
	['chmod', analyzeChangeMode],
	['chown', analyzeChangeOwner],
	['chgrp', analyzeChangeOwner],
	['dd', analyzeDiskDump]
]);
