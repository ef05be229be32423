import type { Command, ExecResult, ResolvedCommandContext } from 'just-bash';
import { quoteArguments } from './package-scripts.js';

/**
 * `npx <program>`: runs what the offline shell has (tsx, node, tsc's message, any shell command)
 * and says plainly that anything else would be a download from npm.
 */
export function createNpxCommand(
	commands: () => ReadonlyMap<string, Command>,
	knownPrograms: () => ReadonlySet<string>
): Command {
	return {
		name: 'npx',
		trusted: true,
		execute: (args, context) => runNpx(args, context, commands(), knownPrograms())
	};
}

async function runNpx(
	args: string[],
	context: ResolvedCommandContext,
	commands: ReadonlyMap<string, Command>,
	knownPrograms: ReadonlySet<string>
): Promise<ExecResult> {
	let index = 0;
	while (
		index < args.length &&
		/^(-y|--yes|--no|--no-install|--quiet|-q|--)$/.test(args[index] ?? '')
	)
		index += 1;
	const program = args[index];
	const rest = args.slice(index + 1);
	if (!program) {
		return {
			stdout: '',
			stderr: 'npx: name a program to run, e.g. npx tsx file.ts\n',
			exitCode: 1
		};
	}
	if (program.startsWith('-')) {
		return {
			stdout: '',
			stderr: `npx: ${program} is not supported offline (npx runs the offline shell's programs: tsx, node, …)\n`,
			exitCode: 1
		};
	}
	const name = program.replace(/@[^/@]*$/, '');
	const command = commands.get(name);
	if (command) return command.execute(rest, context);
	if (knownPrograms.has(name) && context.exec) {
		return context.exec(quoteArguments([name, ...rest]), { cwd: context.cwd });
	}
	return {
		stdout: '',
		stderr: `npx: ${program} is not available offline: npx would download it from npm, which the offline sandbox cannot reach. Use the WebContainer sandbox, or what is here (node, tsx, node --test).\n`,
		exitCode: 1
	};
}
