import { toolError, type ToolError } from '../errors/tool-error.js';

/**
 * What an executor's exception means for the model. Filesystem refusals carry an errno `code`
 * (and messages in workspace paths, never host paths): a path through a symbolic link is a
 * protected path (links are never followed, they could lead into .git/ or .orchestration/); a
 * parent that is a file, a missing parent or an over-long name is the caller's invalid input.
 * Anything else is an unexpected failure.
 */
export function executorFailure(tool: string, error: unknown): ToolError {
	const code = (error as { code?: unknown } | null)?.code;
	const message = error instanceof Error ? error.message : String(error);
	if (code === 'EACCES' && /link/i.test(message)) {
		return toolError(
			'protected_path',
			`${tool} was refused: ${message}.`,
			'Use the real path of the file, inside your owned_scope; links are never followed.'
		);
	}
	if (
		code === 'ENOTDIR' ||
		code === 'ENAMETOOLONG' ||
		code === 'EINVAL' ||
		code === 'EISDIR' ||
		code === 'ENOENT'
	) {
		return toolError(
			'invalid_input',
			`${tool}: ${message}.`,
			'Check the path: every parent must be a folder, and names must be reasonably short.'
		);
	}
	return toolError(
		'hook_failed',
		`${tool} failed unexpectedly: ${message}`,
		'Retry once; if it fails again, tell the human.'
	);
}
