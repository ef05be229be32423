import { classifyCommand } from '../commands/classify-command.js';
import { normalizeWorkspacePath } from '../paths/normalize-path.js';
import type { ValidatedCall } from './hook-types.js';

/** Where the shell mounts the workspace; absolute paths under it are workspace paths. */
export const shellWorkspaceRoot = '/workspace';

const singlePathSuggestion = 'Use a workspace-relative path such as src/index.ts.';

export type ResolvedTargets =
	| {
			ok: true;
			targets: string[];
			command?: ReturnType<typeof classifyCommand> & { cwd: string };
			/** For request_scope_expansion: the normalised paths or globs asked for. */
			requestedScope?: string[];
	  }
	| { ok: false; message: string; suggestion: string };

/** The normalised paths a call will change, or why its paths are unusable. */
export function resolveTargets(call: ValidatedCall): ResolvedTargets {
	switch (call.tool) {
		case 'read_file': {
			// Reading changes nothing, so it has no targets (scope and protected paths do not apply);
			// the path is still normalised, and the executor reads the normalised one.
			const raw = String(call.input.path);
			const normalised = normalizeWorkspacePath(raw);
			if (!normalised.ok) return unusable('path', raw, normalised.reason, singlePathSuggestion);
			call.input.path = normalised.path;
			return { ok: true, targets: [] };
		}
		case 'write_to_file':
		case 'apply_diff':
		case 'delete_file': {
			const raw = String(call.input.path);
			const normalised = normalizeWorkspacePath(raw);
			if (!normalised.ok) return unusable('path', raw, normalised.reason, singlePathSuggestion);
			return { ok: true, targets: [normalised.path] };
		}
		case 'request_scope_expansion': {
			const requested: string[] = [];
			for (const raw of call.input.paths as string[]) {
				const normalised = normalizeWorkspacePath(raw);
				if (!normalised.ok) {
					return unusable(
						'path',
						raw,
						normalised.reason,
						'Give workspace-relative paths or globs such as src/db/**.'
					);
				}
				requested.push(normalised.path);
			}
			// Scope expansion asks about paths; it changes no file, so it has no targets.
			return { ok: true, targets: [], requestedScope: requested };
		}
		case 'execute_command': {
			const rawCwd = (call.input.cwd as string | undefined) || '.';
			const cwd = normalizeWorkspacePath(rawCwd, { allowRoot: true });
			if (!cwd.ok) return unusable('cwd', rawCwd, cwd.reason, 'Use a workspace-relative folder.');
			const classification = classifyCommand(String(call.input.command));
			const targets = new Set<string>();
			for (const target of classification.writeTargets) {
				const path = workspacePathOf(target, cwd.path);
				if (path !== null) targets.add(path);
			}
			return { ok: true, targets: [...targets], command: { ...classification, cwd: cwd.path } };
		}
		default:
			return { ok: true, targets: [] };
	}
}

/** Why a path the call gave cannot be used, in the words the model receives. */
function unusable(
	field: 'path' | 'cwd',
	raw: string,
	reason: string,
	suggestion: string
): Extract<ResolvedTargets, { ok: false }> {
	return { ok: false, message: `${field} "${raw}": ${reason}`, suggestion };
}

/** A command's write target as a workspace path; `null` when it lies outside the workspace (/tmp, /dev/null). */
function workspacePathOf(target: string, cwd: string): string | null {
	if (target.includes('$') || target.includes('`') || target === '') return null;
	if (target.startsWith('/')) {
		if (target === shellWorkspaceRoot) return null;
		if (!target.startsWith(`${shellWorkspaceRoot}/`)) return null;
		const inside = normalizeWorkspacePath(target.slice(shellWorkspaceRoot.length + 1));
		return inside.ok ? inside.path : null;
	}
	const joined = normalizeWorkspacePath(cwd ? `${cwd}/${target}` : target);
	return joined.ok ? joined.path : null;
}
