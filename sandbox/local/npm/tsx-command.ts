import type { Command, ExecResult, ResolvedCommandContext } from 'just-bash';

/**
 * `tsx` (and `ts-node`): the offline node already runs TypeScript, so `tsx file.ts args` is
 * `node file.ts args`, `tsx --test` is `node --test`. Watch mode and the REPL are not here.
 */
export function createTsxCommand(name: 'tsx' | 'ts-node', node: Command): Command {
	return {
		name,
		trusted: true,
		execute: (args, context) => runTsx(name, args, context, node)
	};
}

async function runTsx(
	name: string,
	args: string[],
	context: ResolvedCommandContext,
	node: Command
): Promise<ExecResult> {
	if (args[0] === 'watch') {
		return failure(
			`${name} watch is not available offline (nothing watches files here): run ${name} ${args.slice(1).join(' ')} again after a change.`
		);
	}
	if (args.length === 0) {
		return failure(
			`${name}: the interactive REPL is not available offline; run a file (${name} file.ts) or node -e "…".`
		);
	}
	if (args[0] === '--version' || args[0] === '-v') {
		return {
			stdout: `${name} (offline: the sandbox's node runs TypeScript itself)\n`,
			stderr: '',
			exitCode: 0
		};
	}
	// tsx's own options that change nothing here.
	const passed = args.filter(
		(arg, index) => !(index === 0 && /^--(tsconfig|no-cache|clear-screen)(=.*)?$/.test(arg))
	);
	return node.execute(passed, context);
}

function failure(message: string): ExecResult {
	return { stdout: '', stderr: `${message}\n`, exitCode: 1 };
}
