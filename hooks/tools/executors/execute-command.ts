import { toolError, type ToolError } from '../../errors/tool-error.js';
import { normalizeWorkspacePath } from '../../paths/normalize-path.js';
import type { ExecutionContext, Executor } from './execution-context.js';
import { runGovernedCommand } from './governed-exec.js';

/** The model sees at most this much of a command's output; the rest is summarised. */
export const maximumCommandOutput = 20_000;
const defaultCommandTimeoutMs = 30_000;

export const executeCommand: Executor = async (context) => {
	const input = context.call.input as { command: string; cwd?: string; timeout_ms?: number };
	const cwd = await checkWorkingFolder(context, input.cwd);
	if ('error' in cwd) return { ok: false, error: cwd.error, changes: [] };
	const { result, kept, violation } = await runGovernedCommand(context, input.command, {
		cwd: cwd.path,
		timeoutMs: input.timeout_ms ?? defaultCommandTimeoutMs,
		intentId: context.session.activeIntentId
	});
	const output = truncate(result.output);
	const common = { changes: kept, changesRecorded: true, exitCode: result.exitCode };
	if (violation) {
		return { ok: false, error: violation, ...common, commandOutput: output };
	}
	if (result.exitCode !== 0) {
		return {
			ok: false,
			error: toolError(
				'command_failed',
				`The command exited with code ${result.exitCode}${result.interrupted ? ' (stopped: time limit or interrupt)' : ''}. Output:\n${tail(output)}`,
				'Read the output, fix the cause, and try again; record a lesson if it teaches something.'
			),
			...common,
			commandOutput: output
		};
	}
	return {
		ok: true,
		output: {
			exit_code: 0,
			output,
			changed_files: kept.map((change) => `${change.type} ${change.path}`)
		},
		...common,
		commandOutput: output
	};
};

/**
 * The working folder, checked before anything runs: a bad one is the caller's mistake
 * (`invalid_input`), and the message names it as given, never as a host path.
 */
async function checkWorkingFolder(
	context: ExecutionContext,
	given: string | undefined
): Promise<{ path: string } | { error: ToolError }> {
	const invalid = (reason: string) => ({
		error: toolError(
			'invalid_input',
			`cwd ${JSON.stringify(given)}: ${reason}`,
			'Use an existing workspace-relative folder, or leave cwd out to run at the root.'
		)
	});
	const cwd = normalizeWorkspacePath(given || '.', { allowRoot: true });
	if (!cwd.ok) return invalid(cwd.reason);
	if (cwd.path.length > maximumWorkingFolderLength) return invalid('the path is too long.');
	if (cwd.path === '') return { path: '' };
	let stat;
	try {
		stat = await context.fs.stat(cwd.path);
	} catch {
		return invalid('the folder cannot be read (is a parent a file?).');
	}
	if (!stat) return invalid('no such folder in the workspace.');
	if (stat.kind !== 'directory') return invalid('it is a file, not a folder.');
	return { path: cwd.path };
}

const maximumWorkingFolderLength = 4_096;

function truncate(output: string): string {
	if (output.length <= maximumCommandOutput) return output;
	const half = maximumCommandOutput / 2;
	return `${output.slice(0, half)}\n… ${output.length - maximumCommandOutput} characters omitted …\n${output.slice(-half)}`;
}

function tail(output: string): string {
	return output.length > 2_000 ? `…${output.slice(-2_000)}` : output;
}
