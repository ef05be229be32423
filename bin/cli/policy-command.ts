import { lstat, readFile } from 'node:fs/promises';
import {
	claudePermissionLimits,
	claudePermissionsToPolicy,
	policyToClaudePermissions
} from '../../hooks/importers/claude-permissions.js';
import { maximumHookPolicyBytes } from '../../hooks/policies/parse-hook-policy.js';
import { parseArguments } from './parse-arguments.js';
import { UsageError } from './usage-error.js';

type Output = { out(text: string): void; err(text: string): void };

/**
 * `threadline policy import claude <settings.json>` prints the hooks.yaml for Claude Code's
 * permissions; `threadline policy export claude <hooks.yaml>` prints the settings JSON. The
 * converted file goes to stdout (redirect it), what has no equivalent to stderr (and, for
 * hooks.yaml, as comments at its top).
 */
export async function policyCommand(argv: string[], output: Output): Promise<number> {
	const [direction, format, ...rest] = argv;
	const { positional } = parseArguments(rest, {});
	if (
		(direction !== 'import' && direction !== 'export') ||
		format !== 'claude' ||
		positional.length !== 1
	)
		throw new UsageError(
			'policy takes: threadline policy import claude <settings.json> | threadline policy export claude <hooks.yaml>'
		);
	const source = positional[0] as string;
	const limit =
		direction === 'import' ? claudePermissionLimits.maximumSettingsBytes : maximumHookPolicyBytes;
	const info = await lstat(source).catch(() => null);
	if (!info?.isFile()) throw new UsageError(`${source} is not a file`);
	if (info.size > limit) throw new UsageError(`${source} is larger than ${limit / 1024} KiB`);
	const text = await readFile(source, 'utf8');
	const result =
		direction === 'import' ? claudePermissionsToPolicy(text) : policyToClaudePermissions(text);
	if (!result.ok) throw new UsageError(`${source}: ${result.problem}`);
	output.out(result.value);
	for (const line of result.notCarried) output.err(`not carried: ${line}`);
	for (const line of result.notes) output.err(`note: ${line}`);
	return 0;
}
