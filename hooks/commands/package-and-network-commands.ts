/**
 * Commands that reach the network (`curl`, `wget`) or change installed packages (`npm`, `pnpm`,
 * `yarn`, `pip`). Both are destructive; listing and inspecting subcommands are read-only.
 */
import {
	code,
	commandName,
	isHarmlessDevice,
	type CommandContext,
	type CommandHandler
} from './command-analysis.js';
import { hasOption, optionValues, parseOptions } from './parse-options.js';

function analyzeCurl(argv: string[], { analysis }: CommandContext): void {
	const parsed = parseOptions(argv.slice(1), {
		shortWithValue: 'dHXuAeoTFbcDKxmwErYyzCUPQt',
		longWithValue: [
			'data',
			'data-raw',
			'data-binary',
			'header',
			'request',
			'user',
			'user-agent',
			'referer',
			'output',
			'upload-file',
			'form',
			'cookie',
			'cookie-jar',
			'dump-header',
			'config',
			'proxy',
			'max-time',
			'write-out',
			'range',
			'output-dir',
			'url'
		]
	});
	analysis.destructive('`curl` reaches the network');
	for (const output of optionValues(parsed, 'o', 'output', 'c', 'cookie-jar', 'D', 'dump-header')) {
		if (output === '-' || isHarmlessDevice(output)) continue;
		analysis.write(output);
		analysis.destructive(`\`curl\` writes to ${output}`);
	}
	if (hasOption(parsed, 'O', 'remote-name', 'remote-name-all')) {
		analysis.destructive('`curl -O` saves the download to a file named after the URL');
	}
}

function analyzeWget(argv: string[], { analysis }: CommandContext): void {
	const parsed = parseOptions(argv.slice(1), {
		shortWithValue: 'OoaPUetTwQiB',
		longWithValue: [
			'output-document',
			'output-file',
			'append-output',
			'directory-prefix',
			'user-agent',
			'tries',
			'timeout',
			'wait',
			'quota',
			'input-file',
			'base'
		]
	});
	analysis.destructive('`wget` reaches the network');
	const documents = optionValues(parsed, 'O', 'output-document');
	for (const output of [
		...documents,
		...optionValues(parsed, 'o', 'output-file', 'a', 'append-output')
	]) {
		if (output === '-' || isHarmlessDevice(output)) continue;
		analysis.write(output);
		analysis.destructive(`\`wget\` writes to ${output}`);
	}
	if (documents.length === 0) analysis.destructive('`wget` saves the download to a file');
}

const installSubcommands = new Set([
	'install',
	'i',
	'in',
	'ins',
	'add',
	'ci',
	'clean-install',
	'install-clean',
	'ic',
	'uninstall',
	'un',
	'unlink',
	'remove',
	'rm',
	'r',
	'update',
	'up',
	'upgrade',
	'dedupe',
	'prune',
	'link',
	'ln'
]);
const readOnlyPackageSubcommands = new Set([
	'ls',
	'list',
	'll',
	'la',
	'view',
	'v',
	'info',
	'show',
	'outdated',
	'help',
	'search',
	'why',
	'explain',
	'root',
	'prefix'
]);

function analyzePackageManager(argv: string[], { analysis }: CommandContext): void {
	const name = commandName(argv[0]!);
	const args = argv.slice(1);
	const subcommand = args.find((arg) => !arg.startsWith('-'));
	if (subcommand === undefined) {
		if (args.some((arg) => ['--version', '-v', '--help', '-h'].includes(arg))) {
			analysis.readOnly(`\`${name} --version\` only prints`);
		} else if (name === 'yarn') {
			analysis.destructive('`yarn` without a subcommand installs packages');
		} else {
			analysis.readOnly(`\`${name}\` without a subcommand only prints help`);
		}
		return;
	}
	const label = `\`${name} ${subcommand}\``;
	const rest = args.slice(args.indexOf(subcommand) + 1);
	if (installSubcommands.has(subcommand)) {
		analysis.destructive(`${label} changes installed packages`);
	} else if (subcommand === 'exec' || subcommand === 'dlx' || subcommand === 'x') {
		analysis.destructive(`${label} downloads and runs a package`);
	} else if (subcommand === 'audit') {
		if (rest.includes('fix'))
			analysis.destructive(`\`${name} audit fix\` changes installed packages`);
		else analysis.readOnly(`${label} only reports`);
	} else if (subcommand === 'config') {
		if (rest[0] === 'get' || rest[0] === 'list' || rest[0] === 'ls') {
			analysis.readOnly(`${label} only reads settings`);
		} else {
			analysis.destructive(`${label} changes settings`);
		}
	} else if (readOnlyPackageSubcommands.has(subcommand)) {
		analysis.readOnly(`${label} does not change files`);
	} else {
		analysis.destructive(`${label} runs package scripts, which can write files`);
	}
}

function analyzePip(argv: string[], { analysis }: CommandContext): void {
	const name = commandName(argv[0]!);
	const subcommand = argv.slice(1).find((arg) => !arg.startsWith('-'));
	const readOnly = ['list', 'show', 'freeze', 'check', 'help', 'search', 'index', 'inspect'];
	if (subcommand === undefined || readOnly.includes(subcommand)) {
		analysis.readOnly(`\`${name}${subcommand ? ` ${subcommand}` : ''}\` does not change packages`);
		return;
	}
	analysis.destructive(`\`${name} ${subcommand}\` changes installed packages`);
}

export const packageAndNetworkHandlers: ReadonlyMap<string, CommandHandler> = new Map([
	['curl', analyzeCurl],
	['wget', analyzeWget],
	['npm', analyzePackageManager],
	['pnpm', analyzePackageManager],
	['yarn', analyzePackageManager],
	['pip', analyzePip],
	['pip3', analyzePip],
	...['npx', 'pnpx', 'bunx'].map((name): [string, CommandHandler] => [
		name,
		(_argv, context) => context.analysis.destructive(`${code(name)} downloads and runs a package`)
	])
]);
