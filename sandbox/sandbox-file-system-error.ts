/**
 * The error every sandbox filesystem throws for a refused operation. `code` follows the POSIX
 * errno names so callers (and shells built on top) can branch on it without parsing messages.
 */
export type SandboxFileSystemErrorCode =
	| 'ENOENT'
	| 'EEXIST'
	| 'ENOTDIR'
	| 'EISDIR'
	| 'ENOTEMPTY'
	| 'EINVAL'
	| 'EPERM'
	| 'EACCES'
	| 'ENOTSUP'
	| 'EDQUOT';

const explanations: Record<SandboxFileSystemErrorCode, string> = {
	ENOENT: 'no such file or directory',
	EEXIST: 'file already exists',
	ENOTDIR: 'not a directory',
	EISDIR: 'is a directory',
	ENOTEMPTY: 'directory not empty',
	EINVAL: 'invalid argument',
	EPERM: 'operation not permitted',
	EACCES: 'permission denied',
	ENOTSUP: 'operation not supported',
	EDQUOT: 'disk quota exceeded'
};

export class SandboxFileSystemError extends Error {
	readonly code: SandboxFileSystemErrorCode;
	/** Workspace-relative path the operation was refused for. */
	readonly path: string;
	readonly operation: string;
	/** Why, when the errno alone does not say (e.g. which limit was reached). */
	readonly detail: string | undefined;

	constructor(code: SandboxFileSystemErrorCode, operation: string, path: string, detail?: string) {
		const shownPath = path === '' ? '.' : path;
		super(
			`${code}: ${explanations[code]}, ${operation} '${shownPath}'${detail ? ` (${detail})` : ''}`
		);
		this.name = 'SandboxFileSystemError';
		this.code = code;
		this.path = path;
		this.operation = operation;
		this.detail = detail;
	}

	/** The errno wording alone, e.g. "no such file or directory". */
	static explain(code: SandboxFileSystemErrorCode): string {
		return explanations[code];
	}
}

export function isSandboxFileSystemError(
	error: unknown,
	code?: SandboxFileSystemErrorCode
): error is SandboxFileSystemError {
	return error instanceof SandboxFileSystemError && (code === undefined || error.code === code);
}
