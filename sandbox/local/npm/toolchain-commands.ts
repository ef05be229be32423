import type { Command } from 'just-bash';
import { createNodeCommand, type NodeCommandOptions } from '../node-command.js';
import { createNpmCommand } from './npm-command.js';
import { createNpxCommand } from './npx-command.js';
import { createUnavailableCommands, unavailableProgramNames } from './offline-messages.js';
import { createTscCommand } from './tsc-command.js';
import { createTsxCommand } from './tsx-command.js';

/** The JavaScript toolchain of the offline shell, registered by shell-command-runner.ts. */
export const toolchainCommandNames = [
	'node',
	'npm',
	'npx',
	'tsx',
	'ts-node',
	'tsc',
	...unavailableProgramNames
] as const;

/**
 * Names registered only to say the program is not here and what to use instead (`tsc`, `gcc`,
 * `python`, `yarn`…): they answer, but run nothing, so they are not offered as commands.
 */
export const explanatoryProgramNames: readonly string[] = ['tsc', ...unavailableProgramNames];

export function createToolchainCommands(
	options: NodeCommandOptions & {
		/** Every command the shell has (for npm scripts and npx). */
		commandNames: readonly string[];
	}
): Command[] {
	const node = createNodeCommand(options);
	const tsx = createTsxCommand('tsx', node);
	const tsNode = createTsxCommand('ts-node', node);
	const tsc = createTscCommand();
	// npm scripts and npx may start what the shell runs, not the programs that only explain.
	const known = new Set(
		options.commandNames.filter((name) => !unavailableProgramNames.includes(name))
	);
	const byName = new Map<string, Command>([
		['node', node],
		['tsx', tsx],
		['ts-node', tsNode],
		['tsc', tsc]
	]);
	const npm = createNpmCommand(() => known);
	const npx = createNpxCommand(
		() => byName,
		() => known
	);
	byName.set('npm', npm);
	return [node, npm, npx, tsx, tsNode, tsc, ...createUnavailableCommands()];
}
