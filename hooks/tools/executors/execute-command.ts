import { toolError, type ToolError } from '../../errors/tool-error.js';
import { normalizeWorkspacePath } from '../../paths/normalize-path.js';
import { isProtectedPath } from '../../paths/protected-paths.js';
import { scopeViolationMessage } from '../../pre-hooks/scope-hook.js';
import type { FileChange, SandboxFileSystem } from '../sandbox-ports.js';
import type { ExecutionContext, Executor } from './execution-context.js';

/** The model sees at most this much of a command's output; the rest is summarised. */
export const maximumCommandOutput = 20_000;
const defaultCommandTimeoutMs = 30_000;

export const executeCommand: Executor = async (context) => {
	const input = context.call.input as { command: string; cwd?: string; timeout_ms?: number };
	const cwd = normalizeWorkspacePath(input.cwd || '.', { allowRoot: true });
	if (!cwd.ok) {
		return {
			ok: false,
			error: toolError(
				'invalid_input',
				`cwd ${input.cwd}: ${cwd.reason}`,
				'Use a workspace-relative folder.'
			),
			changes: []
		};
	}
	const result = await context.runner.exec(input.command, {
		cwd: cwd.path,
		timeoutMs: input.timeout_ms ?? defaultCommandTimeoutMs,
		signal: context.signal
	});
	const { kept, reverted, violation } = await enforceBounds(context, result.changes);
	for (const change of reverted) {
		context.emit({
			type: 'change-revert',
			session_id: context.session.id,
			tool: 'execute_command',
			tool_call_id: context.call.toolCallId,
			path: change.path,
			code: violation?.code ?? 'scope_violation'
		});
	}
	const output = truncate(result.output);
	if (violation) {
		return {
			ok: false,
			error: violation,
			changes: kept,
			exitCode: result.exitCode,
			commandOutput: output
		};
	}
	if (result.exitCode !== 0) {
		return {
			ok: false,
			error: toolError(
				'command_failed',
				`The command exited with code ${result.exitCode}${result.interrupted ? ' (stopped: time limit or interrupt)' : ''}. Output:\n${tail(output)}`,
				'Read the output, fix the cause, and try again; record a lesson if it teaches something.'
			),
			changes: kept,
			exitCode: result.exitCode,
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
		changes: kept,
		exitCode: 0,
		commandOutput: output
	};
};

/**
 * Shell commands are checked after the fact, like any write: changes to protected paths or outside
 * the active intent's scope are put back from the before-snapshot and reported.
 */
async function enforceBounds(
	context: ExecutionContext,
	changes: FileChange[]
): Promise<{ kept: FileChange[]; reverted: FileChange[]; violation: ToolError | null }> {
	const kept: FileChange[] = [];
	const reverted: FileChange[] = [];
	let violation: ToolError | null = null;
	const intentId = context.session.activeIntentId;
	for (const change of changes) {
		const normalised = normalizeWorkspacePath(change.path);
		const path = normalised.ok ? normalised.path : change.path;
		let problem: ToolError | null = null;
		if (!normalised.ok || isProtectedPath(path)) {
			problem = toolError(
				'protected_path',
				`Protected Path: the command changed ${path}, which agents can never change. The change was reverted.`,
				'Leave .orchestration/ and .git/ to the human.'
			);
		} else if (!intentId) {
			problem = toolError(
				'intent_required',
				`The command changed ${path} without an active intent. The change was reverted.`,
				'Call select_active_intent before running commands that change files.'
			);
		} else if (!context.state.scope.isInScope(intentId, path)) {
			problem = toolError(
				'scope_violation',
				`${scopeViolationMessage(intentId, path)} The command's change to ${path} was reverted.`,
				'Change only files inside your owned_scope, or call request_scope_expansion first.'
			);
		}
		if (problem) {
			await revert(context.fs, change);
			reverted.push(change);
			violation ??= problem;
		} else {
			kept.push({ ...change, path });
		}
	}
	if (violation && reverted.length > 1) {
		violation = {
			...violation,
			message: `${violation.message} (${reverted.length} changes reverted: ${reverted.map((change) => change.path).join(', ')})`
		};
	}
	return { kept, reverted, violation };
}

async function revert(fs: SandboxFileSystem, change: FileChange): Promise<void> {
	if (change.before === null) {
		if (await fs.stat(change.path)) await fs.rm(change.path);
	} else {
		await fs.writeFile(change.path, change.before);
	}
}

function truncate(output: string): string {
	if (output.length <= maximumCommandOutput) return output;
	const half = maximumCommandOutput / 2;
	return `${output.slice(0, half)}\n… ${output.length - maximumCommandOutput} characters omitted …\n${output.slice(-half)}`;
}

function tail(output: string): string {
	return output.length > 2_000 ? `…${output.slice(-2_000)}` : output;
}
