import type { Sandbox } from '../sandbox.js';
import { loadJustBash } from './load-just-bash.js';
import { checkLocalSandboxOptions, type LocalSandboxOptions } from './local-sandbox-options.js';
import { ShellCommandRunner } from './shell-command-runner.js';
import { ShellSandbox } from './shell-sandbox.js';

export {
	defaultLocalTimeoutMs,
	defaultShellTimeoutMs,
	type LocalSandboxOptions
} from './local-sandbox-options.js';
export { workspaceMountPoint } from './shell-command.js';
export { defaultLocalExecutionLimits, type ExecutionLimits } from './shell-command-runner.js';
export { localSandboxDescription } from './shell-sandbox.js';

/**
 * The offline sandbox with commands run in this thread: just-bash over a WorkspaceFiles store.
 * Loads just-bash on creation (not on import). In a page, a runaway synchronous loop blocks the
 * thread until just-bash's limits or deadline stop it: the browser uses createWorkerLocalSandbox
 * (sandbox/browser/), which runs the same ShellCommandRunner in a Worker it can terminate.
 */
export async function createLocalSandbox(options: LocalSandboxOptions): Promise<Sandbox> {
	const timeouts = checkLocalSandboxOptions(options, 'createLocalSandbox');
	const justBash = await loadJustBash();
	const runner = new ShellCommandRunner(justBash, options.files, {
		...(options.limits ? { limits: options.limits } : {}),
		...(options.nodeLimits ? { nodeLimits: options.nodeLimits } : {}),
		...(options.maxCommandWriteBytes !== undefined
			? { maxCommandWriteBytes: options.maxCommandWriteBytes }
			: {}),
		...(options.repository ? { repository: options.repository } : {})
	});
	runner.initialRepositoryRevision = await runner.repositoryRevision();
	return new ShellSandbox(options.files, runner, timeouts);
}
