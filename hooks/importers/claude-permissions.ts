import { stringify } from 'yaml';
import { parseHookPolicy } from '../policies/parse-hook-policy.js';
import type { HookPolicy, PolicyRule } from '../policies/hook-policy-schema.js';

/**
 * Claude Code's `permissions` (settings.json: `deny`, `ask`, `allow`, each a list of `Tool` or
 * `Tool(specifier)`) and a scenario's `.orchestration/hooks.yaml`, both ways. Both resolve the
 * same way: among matching rules deny > ask > allow, whatever their order, so each entry becomes
 * one rule (and back). What one side cannot say is listed in `notCarried`, never dropped quietly;
 * where the mapping is wider or narrower than the original, `notes` says so.
 */

export type PermissionAction = 'deny' | 'ask' | 'allow';
const actions: readonly PermissionAction[] = ['deny', 'ask', 'allow'];

export interface ConversionResult<T> {
	ok: true;
	value: T;
	/** Entries or rules with no equivalent on the other side, each with why. */
	notCarried: string[];
	/** Entries carried with a different reach, each with how. */
	notes: string[];
}

export type ConversionFailure = { ok: false; problem: string };

/** A settings file is a few kilobytes; these bound what a hostile one can make us do. */
export const claudePermissionLimits = Object.freeze({
	maximumSettingsBytes: 256 * 1024,
	maximumEntries: 500,
	maximumEntryLength: 2_000
});

/** Claude Code's file tools and the Threadline tools a rule on them reaches. */
const readTools = ['read_file', 'list_files', 'search_files'];
const editTools = ['write_to_file', 'apply_diff', 'delete_file'];
const claudeToThreadline: Record<string, string[]> = {
	Read: readTools,
	Grep: ['search_files'],
	Glob: ['list_files'],
	LS: ['list_files'],
	Edit: editTools,
	MultiEdit: editTools,
	Write: ['write_to_file'],
	Bash: ['execute_command']
};
const pathTools = new Set(['Read', 'Grep', 'Glob', 'LS', 'Edit', 'MultiEdit', 'Write']);

/** `Tool` or `Tool(specifier)`; the specifier may itself hold parentheses. */
function parseEntry(entry: string): { tool: string; specifier: string | null } | null {
	const match = /^([A-Za-z][A-Za-z0-9_-]*)(?:\((.*)\))?$/s.exec(entry.trim());
	if (!match) return null;
	return { tool: match[1] as string, specifier: match[2] ?? null };
}

/**
 * A Claude Code path specifier (gitignore-style) as a workspace glob, or why it has none:
 * `//abs` and `~/…` name places outside any workspace; `/x` and `./x` are relative to the
 * project root; a pattern with no `/` inside matches at any depth, as in gitignore.
 */
function workspaceGlob(specifier: string): { glob: string } | { problem: string } {
	const text = specifier.trim();
	if (text.startsWith('//')) return { problem: 'an absolute path outside the workspace' };
	if (text.startsWith('~')) return { problem: 'a path in the home folder, outside the workspace' };
	let glob = text.replace(/^\.\//, '').replace(/^\//, '');
	if (glob === '' || glob === '.') return { glob: '**' };
	if (glob.split('/').some((segment) => segment === '..'))
		return { problem: 'a path that leaves the project folder (..)' };
	if (glob.endsWith('/')) glob = `${glob}**`;
	// gitignore: a pattern without a slash (other than a trailing one) matches at any depth.
	if (!text.replace(/\/$/, '').includes('/')) glob = `**/${glob}`;
	return { glob };
}

/** `npm run test:*` (Claude Code's prefix form) as hooks.yaml command patterns: the command, or it with arguments. */
function commandPatterns(specifier: string): string[] {
	const text = specifier.trim();
	if (text.endsWith(':*')) {
		const prefix = text.slice(0, -2).trim();
		return [prefix, `${prefix} *`];
	}
	return [text];
}

/** Claude Code settings JSON (its `permissions` object) → hooks.yaml rules. */
export function claudePermissionsToPolicy(
	settingsJson: string
): ConversionResult<string> | ConversionFailure {
	if (settingsJson.length > claudePermissionLimits.maximumSettingsBytes)
		return {
			ok: false,
			problem: `the settings file is larger than ${claudePermissionLimits.maximumSettingsBytes / 1024} KiB`
		};
	let settings: unknown;
	try {
		settings = JSON.parse(settingsJson);
	} catch (error) {
		return { ok: false, problem: `the settings file is not JSON: ${(error as Error).message}` };
	}
	if (typeof settings !== 'object' || settings === null || Array.isArray(settings))
		return { ok: false, problem: 'the settings file is not a JSON object' };
	const permissions = (settings as Record<string, unknown>).permissions;
	if (typeof permissions !== 'object' || permissions === null || Array.isArray(permissions))
		return { ok: false, problem: 'the settings file has no "permissions" object' };
	const notCarried: string[] = [];
	const notes: string[] = [];
	const rules: PolicyRule[] = [];
	let entries = 0;
	for (const [key, value] of Object.entries(permissions as Record<string, unknown>)) {
		if (!(actions as readonly string[]).includes(key)) {
			notCarried.push(
				`permissions.${key}: ${JSON.stringify(value)?.slice(0, 200)} (hooks.yaml has no equivalent; Threadline's approval policy is set in scenario.yaml)`
			);
			continue;
		}
		const action = key as PermissionAction;
		if (!Array.isArray(value)) return { ok: false, problem: `permissions.${action} is not a list` };
		for (const [index, entry] of (value as unknown[]).entries()) {
			const where = `permissions.${action}[${index}]`;
			if (++entries > claudePermissionLimits.maximumEntries)
				return {
					ok: false,
					problem: `more than ${claudePermissionLimits.maximumEntries} permission entries`
				};
			if (typeof entry !== 'string') return { ok: false, problem: `${where} is not a string` };
			if (entry.length > claudePermissionLimits.maximumEntryLength)
				return {
					ok: false,
					problem: `${where} is longer than ${claudePermissionLimits.maximumEntryLength} characters`
				};
			const parsed = parseEntry(entry);
			const tools = parsed ? claudeToThreadline[parsed.tool] : undefined;
			if (!parsed || !tools) {
				notCarried.push(
					`${where} ${JSON.stringify(entry)}: ${parsed ? `Threadline has no tool like ${parsed.tool}` : 'not Tool or Tool(specifier)'}`
				);
				continue;
			}
			const message = `From Claude Code settings: ${action} ${entry}`;
			const { tool, specifier } = parsed;
			if (
				specifier === null ||
				specifier.trim() === '' ||
				specifier.trim() === '*' ||
				specifier.trim() === ':*'
			) {
				rules.push({ match: { tools }, action, ...(action === 'deny' ? { message } : {}) });
				continue;
			}
			if (tool === 'Bash') {
				const patterns = commandPatterns(specifier);
				if (patterns.some((pattern) => pattern.includes('?')))
					notes.push(
						`${where} ${JSON.stringify(entry)}: "?" is one character in hooks.yaml command patterns, literal in Claude Code`
					);
				rules.push({
					match: { tools, commands: patterns },
					action,
					...(action === 'deny' ? { message } : {})
				});
				continue;
			}
			if (pathTools.has(tool)) {
				const glob = workspaceGlob(specifier);
				if ('problem' in glob) {
					notCarried.push(`${where} ${JSON.stringify(entry)}: ${glob.problem}`);
					continue;
				}
				rules.push({
					match: { tools, paths: [glob.glob] },
					action,
					...(action === 'deny' ? { message } : {})
				});
				continue;
			}
			notCarried.push(`${where} ${JSON.stringify(entry)}: no specifier form for ${tool}`);
		}
	}
	const policy: HookPolicy = { rules };
	const header = [
		'# Converted from Claude Code permissions by `threadline policy import claude`.',
		'# Among matching rules deny > ask > allow, as in Claude Code.',
		...notCarried.map((line) => `# not carried: ${line.replace(/\n/g, ' ')}`),
		...notes.map((line) => `# note: ${line.replace(/\n/g, ' ')}`)
	];
	const text = `${header.join('\n')}\n${stringify(policy, { lineWidth: 0 })}`;
	// The output must be a policy Threadline reads: check it with the one parser.
	const checked = parseHookPolicy(text);
	if (!checked.ok)
		return {
			ok: false,
			problem: `the converted policy is not valid: ${checked.errors.map((error) => `${error.line}:${error.column} ${error.message}`).join('; ')}`
		};
	return { ok: true, value: text, notCarried, notes };
}

/** Threadline tools and the Claude Code tool a permission names for them. */
const threadlineToClaude: Record<string, string> = {
	read_file: 'Read',
	list_files: 'Read',
	search_files: 'Read',
	write_to_file: 'Write',
	apply_diff: 'Edit',
	execute_command: 'Bash'
};

/** A workspace glob as a Claude Code specifier: `/` anchors it at the project root. */
function claudePath(glob: string): string {
	if (glob.startsWith('**/') && !glob.slice(3).includes('/')) return glob.slice(3);
	return `/${glob}`;
}

/** A hooks.yaml command pattern as Claude Code's: `npm test *` → `npm test:*`. */
function claudeCommand(pattern: string): string {
	return pattern.endsWith(' *') ? `${pattern.slice(0, -2)}:*` : pattern;
}

/** hooks.yaml text → Claude Code settings JSON (`{"permissions": {"deny", "ask", "allow"}}`). */
export function policyToClaudePermissions(
	policyYaml: string
): ConversionResult<string> | ConversionFailure {
	const parsed = parseHookPolicy(policyYaml);
	if (!parsed.ok)
		return {
			ok: false,
			problem: parsed.errors
				.map((error) => `hooks.yaml:${error.line}:${error.column} ${error.message}`)
				.join('\n')
		};
	const lists: Record<PermissionAction, string[]> = { deny: [], ask: [], allow: [] };
	const notCarried: string[] = [];
	const notes: string[] = [];
	parsed.policy.rules.forEach((rule, index) => {
		const where = `rules[${index}]`;
		const match = rule.match;
		if (rule.action === 'run') {
			notCarried.push(
				`${where}: action run (${rule.run}) — Claude Code permissions cannot run a check; use a PostToolUse hook`
			);
			return;
		}
		if (match.intents) {
			notCarried.push(
				`${where}: match.intents ${JSON.stringify(match.intents)} — Claude Code has no intents; the rule is left out rather than applied to every intent`
			);
			return;
		}
		if (match.paths && match.commands) {
			notCarried.push(
				`${where}: paths and commands together — a Claude Code entry matches one or the other`
			);
			return;
		}
		if (rule.message)
			notes.push(
				`${where}: the message ${JSON.stringify(rule.message)} is not carried (Claude Code shows its own)`
			);
		const tools =
			match.tools ?? (match.commands ? ['execute_command'] : [...readTools, ...editTools]);
		const claudeTools = new Set<string>();
		for (const tool of tools) {
			const claude = threadlineToClaude[tool];
			if (claude) claudeTools.add(claude);
			else
				notCarried.push(
					`${where}: tool ${tool} — Claude Code has no permission for it${tool === 'delete_file' ? ' (deleting goes through Bash there)' : ''}`
				);
		}
		if (
			match.tools?.some((tool) => readTools.includes(tool)) &&
			!readTools.every((tool) => match.tools?.includes(tool))
		)
			notes.push(`${where}: Read in Claude Code also covers listing and searching`);
		if (match.tools?.includes('apply_diff') && !match.tools.includes('write_to_file'))
			notes.push(`${where}: Edit in Claude Code also covers writing whole files`);
		for (const claude of claudeTools) {
			if (match.commands && claude === 'Bash') {
				for (const pattern of match.commands)
					lists[rule.action].push(`Bash(${claudeCommand(pattern)})`);
			} else if (match.commands) {
				notCarried.push(`${where}: commands on ${claude} — only Bash has commands`);
			} else if (match.paths && claude !== 'Bash') {
				for (const glob of match.paths) lists[rule.action].push(`${claude}(${claudePath(glob)})`);
			} else if (match.paths) {
				notCarried.push(`${where}: paths on Bash — Claude Code matches Bash by command only`);
			} else {
				lists[rule.action].push(claude);
			}
		}
	});
	const permissions = Object.fromEntries(
		actions.map((action) => [action, [...new Set(lists[action])]])
	);
	return { ok: true, value: JSON.stringify({ permissions }, null, 2), notCarried, notes };
}
