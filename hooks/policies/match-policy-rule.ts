import { minimatch } from 'minimatch';
import { tokenizeCommand } from '../commands/tokenize-command.js';
import type { PolicyMatch, PolicyRule } from './hook-policy-schema.js';

/** What a rule is matched against: one tool call as the pre-hooks see it. */
export interface PolicySubject {
	tool: string;
	/** Normalised workspace paths the call changes (or, for a read, the path it reads). */
	paths: readonly string[];
	/** For execute_command: the command line as the agent wrote it. */
	command?: string;
	activeIntentId: string | null;
}

/** Scripts inside scripts deeper than this are matched as whole text only. */
const maximumNesting = 8;

/** Every field the rule gives must match; a list matches when any of its entries does. */
export function matchesPolicy(match: PolicyMatch, subject: PolicySubject): boolean {
	if (match.tools && !match.tools.includes(subject.tool)) return false;
	if (match.intents) {
		if (!subject.activeIntentId || !match.intents.includes(subject.activeIntentId)) return false;
	}
	if (match.paths) {
		const globs = match.paths;
		const hit = subject.paths.some((path) =>
			globs.some((glob) => minimatch(path, glob, { dot: true }))
		);
		if (!hit) return false;
	}
	if (match.commands) {
		if (subject.command === undefined) return false;
		const candidates = commandCandidates(subject.command);
		const patterns = match.commands.map(wildcardPattern);
		if (!candidates.some((candidate) => patterns.some((pattern) => pattern.test(candidate))))
			return false;
	}
	return true;
}

export function matchingRules(
	rules: readonly PolicyRule[],
	subject: PolicySubject
): { rule: PolicyRule; index: number }[] {
	const found: { rule: PolicyRule; index: number }[] = [];
	rules.forEach((rule, index) => {
		if (matchesPolicy(rule.match, subject)) found.push({ rule, index });
	});
	return found;
}

/**
 * The whole line and every simple command in it (after `&&`, `;`, `|`, inside `$( … )` and
 * subshells), so `echo ok && npm publish` still matches `npm publish*`.
 */
export function commandCandidates(command: string, nesting = 0): string[] {
	const candidates = [collapse(command)];
	if (nesting > maximumNesting) return candidates;
	const { segments } = tokenizeCommand(command);
	for (const segment of segments) {
		if (segment.argv.length > 0) candidates.push(collapse(segment.argv.join(' ')));
		for (const inner of segment.substitutions)
			candidates.push(...commandCandidates(inner, nesting + 1));
		// `bash -c "npm publish"` and `eval …` hide a script in an argument.
		const [name, flag, script] = segment.argv;
		if ((name === 'bash' || name === 'sh') && flag === '-c' && script)
			candidates.push(...commandCandidates(script, nesting + 1));
		if (name === 'eval' && segment.argv.length > 1)
			candidates.push(...commandCandidates(segment.argv.slice(1).join(' '), nesting + 1));
	}
	return [...new Set(candidates)];
}

function collapse(text: string): string {
	return text.trim().replace(/\s+/g, ' ');
}

/** `*` is any text, `?` one character; everything else is literal; the whole command must match. */
function wildcardPattern(pattern: string): RegExp {
	const escaped = collapse(pattern)
		.split('')
		.map((character) => {
			if (character === '*') return '.*';
			if (character === '?') return '.';
			return character.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
		})
		.join('');
	return new RegExp(`^${escaped}$`, 's');
}
