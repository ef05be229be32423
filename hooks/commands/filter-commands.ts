/**
 * Text filters that only print unless an option or their program makes them write files or run
 * commands: sed, awk, sort, uniq, tree, date, rg, env, `command -v`.
 */
import {
	commandName,
	isHarmlessDevice,
	type CommandContext,
	type CommandHandler
} from './command-analysis.js';
import { hasOption, optionValues, parseOptions } from './parse-options.js';
import { analyzeSedProgram } from './sed-program.js';

function analyzeSed(argv: string[], { analysis }: CommandContext): void {
	// Parsed by hand: GNU `-i` takes an optional attached suffix, so `-i.bak` and `-ni` edit in place.
	const args = argv.slice(1);
	const scripts: string[] = [];
	const operands: string[] = [];
	let inPlace = false;
	let usesScriptFile = false;
	for (let index = 0; index < args.length; index += 1) {
		const arg = args[index]!;
		if (arg === '--') {
			operands.push(...args.slice(index + 1));
			break;
		}
		if (arg.startsWith('--')) {
			const equals = arg.indexOf('=');
			const name = arg.slice(2, equals === -1 ? undefined : equals);
			if (name === 'in-place') inPlace = true;
			if (name === 'expression' || name === 'file' || name === 'line-length') {
				const value = equals === -1 ? args[++index] : arg.slice(equals + 1);
				if (name === 'expression' && value !== undefined) scripts.push(value);
				if (name === 'file') usesScriptFile = true;
			}
			continue;
		}
		if (!arg.startsWith('-') || arg === '-') {
			operands.push(arg);
			continue;
		}
		for (let letterIndex = 1; letterIndex < arg.length; letterIndex += 1) {
			const letter = arg[letterIndex]!;
			if (letter === 'i' || letter === 'I') {
				inPlace = true;
				break;
			}
			if (letter === 'e' || letter === 'f' || letter === 'l') {
				const attached = arg.slice(letterIndex + 1);
				const value = attached !== '' ? attached : args[++index];
				if (letter === 'e' && value !== undefined) scripts.push(value);
				if (letter === 'f') usesScriptFile = true;
				break;
			}
		}
	}
	// BSD style `sed -i '' 's/a/b/' file`: the empty word is the backup suffix.
	if (inPlace && operands[0] === '') operands.shift();
	const files = scripts.length > 0 || usesScriptFile ? operands : operands.slice(1);
	if (scripts.length === 0 && !usesScriptFile && operands[0] !== undefined)
		scripts.push(operands[0]);
	let changes = false;
	if (inPlace) {
		changes = true;
		analysis.destructive('`sed -i` edits files in place');
		for (const file of files) analysis.write(file);
	}
	if (usesScriptFile) {
		changes = true;
		analysis.destructive('`sed -f` runs a script file that cannot be checked');
	}
	for (const script of scripts) {
		const effects = analyzeSedProgram(script);
		for (const written of effects.writes) {
			if (isHarmlessDevice(written)) continue;
			changes = true;
			analysis.write(written);
			analysis.destructive(`\`sed\` program writes to ${written} (\`w\` command)`);
		}
		if (effects.runsCommands) {
			changes = true;
			analysis.destructive('`sed` program runs shell commands (`e`)');
		}
	}
	if (!changes) analysis.readOnly('`sed` without `-i` only prints');
}

function analyzeAwk(argv: string[], { analysis }: CommandContext): void {
	const name = commandName(argv[0]!);
	let index = 1;
	let usesProgramFile = false;
	while (index < argv.length) {
		const arg = argv[index]!;
		if (arg === '--') {
			index += 1;
			break;
		}
		if (!arg.startsWith('-') || arg === '-') break;
		index += 1;
		if (/^-[fE]$/.test(arg) || arg === '--file' || arg === '--exec') {
			usesProgramFile = true;
			index += 1;
		} else if (/^-[fE]/.test(arg) || arg.startsWith('--file=') || arg.startsWith('--exec=')) {
			usesProgramFile = true;
		} else if (arg === '-F' || arg === '-v' || arg === '--field-separator' || arg === '--assign') {
			index += 1;
		} else if (/^-[il]$/.test(arg) || /^--(?:include|load)$/.test(arg)) {
			analysis.destructive(`\`${name} ${arg}\` loads extension code (e.g. in-place editing)`);
			index += 1;
		} else if (/^-[il]/.test(arg) || /^--(?:include|load)=/.test(arg)) {
			analysis.destructive(`\`${name} ${arg}\` loads extension code (e.g. in-place editing)`);
		} else if (/^-[opd]/.test(arg) || /^--(?:pretty-print|profile|dump-variables)/.test(arg)) {
			analysis.destructive(`\`${name} ${arg}\` writes a file`);
		}
	}
	if (usesProgramFile) {
		analysis.destructive(`\`${name} -f\` runs a program file that cannot be checked`);
		return;
	}
	const program = argv[index];
	if (program === undefined) {
		analysis.destructive(`\`${name}\` has no program to check`);
		return;
	}
	let changes = false;
	if (program.includes('>')) {
		changes = true;
		analysis.destructive(`\`${name}\` program contains \`>\`, which can write to a file`);
	}
	if (/\bsystem\s*\(/.test(program)) {
		changes = true;
		analysis.destructive(`\`${name}\` program calls \`system()\`, which runs commands`);
	}
	if (/\|\s*(?:"|getline\b|&)/.test(program) || /\bprintf?\b[^;{}]*\|(?!\|)/.test(program)) {
		changes = true;
		analysis.destructive(`\`${name}\` program pipes to or from a command`);
	}
	if (!changes) analysis.readOnly(`\`${name}\` does not change files`);
}

function analyzeSort(argv: string[], { analysis }: CommandContext): void {
	const parsed = parseOptions(argv.slice(1), {
		shortWithValue: 'ktSTo',
		longWithValue: [
			'key',
			'field-separator',
			'buffer-size',
			'temporary-directory',
			'output',
			'parallel',
			'batch-size',
			'compress-program',
			'files0-from',
			'sort',
			'random-source'
		]
	});
	const outputs = optionValues(parsed, 'o', 'output').filter((output) => !isHarmlessDevice(output));
	for (const output of outputs) {
		analysis.write(output);
		analysis.destructive(`\`sort -o\` writes to ${output}`);
	}
	if (hasOption(parsed, 'compress-program')) {
		analysis.destructive('`sort --compress-program` runs a program');
	}
	analysis.readOnly('`sort` does not change files');
}

function analyzeUniq(argv: string[], { analysis }: CommandContext): void {
	const parsed = parseOptions(argv.slice(1), {
		shortWithValue: 'fsw',
		longWithValue: ['skip-fields', 'skip-chars', 'check-chars', 'group', 'all-repeated']
	});
	const output = parsed.operands[1];
	if (output !== undefined && !isHarmlessDevice(output)) {
		analysis.write(output);
		analysis.destructive(`\`uniq\` writes to ${output}`);
		return;
	}
	analysis.readOnly('`uniq` does not change files');
}

function analyzeTree(argv: string[], { analysis }: CommandContext): void {
	const parsed = parseOptions(argv.slice(1), {
		shortWithValue: 'LPIoH',
		longWithValue: ['charset', 'filelimit', 'sort', 'timefmt', 'fromfile']
	});
	const outputs = optionValues(parsed, 'o').filter((output) => !isHarmlessDevice(output));
	for (const output of outputs) {
		analysis.write(output);
		analysis.destructive(`\`tree -o\` writes to ${output}`);
	}
	analysis.readOnly('`tree` does not change files');
}

function analyzeDate(argv: string[], { analysis }: CommandContext): void {
	const parsed = parseOptions(argv.slice(1), {
		shortWithValue: 'dfrsI',
		longWithValue: ['date', 'file', 'reference', 'set']
	});
	if (hasOption(parsed, 's', 'set')) analysis.destructive('`date -s` sets the system clock');
	else analysis.readOnly('`date` does not change files');
}

function analyzeRipgrep(argv: string[], { analysis }: CommandContext): void {
	if (argv.some((arg) => arg === '--pre' || arg.startsWith('--pre='))) {
		analysis.destructive('`rg --pre` runs a command on every file');
		return;
	}
	analysis.readOnly('`rg` does not change files');
}

function analyzeEnv(argv: string[], { analysis }: CommandContext): void {
	if (
		argv
			.slice(1)
			.some((arg) => arg === '-S' || arg.startsWith('--split-string') || /^-[^-]*S/.test(arg))
	) {
		analysis.destructive('`env -S` runs a command line that cannot be checked');
		return;
	}
	analysis.readOnly('`env` without a command only prints the environment');
}

/** Reached only for `command -v`/`-V` or a bare `command`; otherwise it is unwrapped. */
function analyzeCommandBuiltin(_argv: string[], { analysis }: CommandContext): void {
	analysis.readOnly('`command -v` only looks a command up');
}

export const filterCommandHandlers: ReadonlyMap<string, CommandHandler> = new Map([
	['sed', analyzeSed],
	['awk', analyzeAwk],
	['gawk', analyzeAwk],
	['mawk', analyzeAwk],
	['nawk', analyzeAwk],
	['sort', analyzeSort],
	['uniq', analyzeUniq],
	['tree', analyzeTree],
	['date', analyzeDate],
	['rg', analyzeRipgrep],
	['env', analyzeEnv],
	['command', analyzeCommandBuiltin]
]);
