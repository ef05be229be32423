import type { ApprovalPrompt } from '../../../hooks/pipeline/ports.js';

/** Which body the approval modal shows for a prompt. */
export type ApprovalKind = 'scope-expansion' | 'file-changes' | 'command' | 'other';

export interface ScopeExpansionRequest {
	intentId: string | null;
	paths: string[];
	reason: string;
}

export type FileChangeKind = 'created' | 'deleted' | 'changed';

/** Enough to read the input of an unusual tool without letting a huge one take over the modal. */
export const maximumInputPreviewLength = 4000;

export function approvalKind(prompt: ApprovalPrompt): ApprovalKind {
	if (prompt.tool === 'request_scope_expansion') return 'scope-expansion';
	if (prompt.command) return 'command';
	if (prompt.preview && prompt.preview.length > 0) return 'file-changes';
	return 'other';
}

/**
 * The paths and reason of a `request_scope_expansion` call, read defensively: the input is typed
 * `unknown` at the port, and the modal must show what is there rather than throw.
 */
export function scopeExpansionOf(prompt: ApprovalPrompt): ScopeExpansionRequest | null {
	if (prompt.tool !== 'request_scope_expansion') return null;
	const input = isRecord(prompt.input) ? prompt.input : {};
	const paths = Array.isArray(input.paths)
		? input.paths.filter((path): path is string => typeof path === 'string' && path.length > 0)
		: [];
	const reason = typeof input.reason === 'string' ? input.reason : '';
	const inputIntent = typeof input.intent_id === 'string' ? input.intent_id : null;
	return { intentId: inputIntent ?? prompt.intentId ?? null, paths, reason };
}

/** The requested paths the intent does not own yet, in the order asked, without repeats. */
export function pathsToAdd(
	requested: readonly string[],
	currentScope: readonly string[]
): string[] {
	const owned = new Set(currentScope);
	return [...new Set(requested)].filter((path) => !owned.has(path));
}

export function approvalHeading(prompt: ApprovalPrompt): string {
	switch (approvalKind(prompt)) {
		case 'scope-expansion':
			return 'The agent asks to widen its scope';
		case 'command':
			return 'The agent wants to run a command';
		case 'file-changes':
			return prompt.tool === 'delete_file'
				? 'The agent wants to delete a file'
				: 'The agent wants to change files';
		default:
			return `The agent wants to call ${prompt.tool}`;
	}
}

export function fileChangeKind(change: {
	before: string | null;
	after: string | null;
}): FileChangeKind {
	if (change.before === null) return 'created';
	if (change.after === null) return 'deleted';
	return 'changed';
}

export const fileChangeLabels: Record<FileChangeKind, string> = {
	created: 'New file',
	deleted: 'Deleted',
	changed: 'Changed'
};

/** "2 more waiting", or null when the current request is the only one. */
export function waitingLabel(pendingCount: number): string | null {
	const more = pendingCount - 1;
	return more > 0 ? `${more} more waiting` : null;
}

/** Why a command asks, in words: its classification level, and the reasons found. */
export function commandClassificationLabel(classification: string): string {
	switch (classification) {
		case 'critical':
			return 'Critical: it can destroy work or reach outside the workspace';
		case 'destructive':
			return 'Destructive: it may change or delete files';
		case 'read-only':
			return 'Read-only';
		default:
			return classification;
	}
}

/** The tool input as indented JSON, cut at `maximumInputPreviewLength` characters. */
export function inputPreview(input: unknown): string {
	let text: string;
	try {
		text = JSON.stringify(input, null, 2) ?? String(input);
	} catch {
		text = String(input);
	}
	if (text.length <= maximumInputPreviewLength) return text;
	const hidden = text.length - maximumInputPreviewLength;
	return `${text.slice(0, maximumInputPreviewLength)}\n… (${hidden} more characters)`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The hooks that can ask, in words a learner reads (no hook names). */
const askerWords: Record<string, string> = {
	'approval-policy': 'this scenario asks you before any change or risky command',
	'protected-intent': 'the intent is protected (.intentignore): every change under it needs you',
	'command-policy': 'the command can change or delete things',
	scope: 'the change reaches outside the intent’s files'
};

/** Why the person is asked, in plain words, e.g. for "approval-policy, protected-intent". */
export function askedBecause(hooks: string): string {
	const names = hooks
		.split(',')
		.map((name) => name.trim())
		.filter(Boolean);
	const words = [
		...new Set(names.map((name) => askerWords[name] ?? `a rule of this scenario (${name})`))
	];
	if (words.length === 0) return 'a rule of this scenario';
	return words.join('; ');
}

/** The command's classification reasons that the modal's reasons do not already say. */
export function extraReasons(commandReasons: readonly string[], shown: readonly string[]) {
	const seen = new Set(shown.map((reason) => reason.trim()));
	return commandReasons.filter((reason) => !seen.has(reason.trim()));
}

/**
 * What a command will write, predicted before it runs, in words: the paths it visibly writes,
 * and — when it may write others (a `cd`, a variable, a script) — that whatever it writes outside
 * the intent's scope will be refused when it ends. A prediction: the command's transaction is
 * what enforces the scope.
 */
export function commandWritesSummary(
	command: NonNullable<ApprovalPrompt['command']>,
	intentId: string | undefined
): { writes: string[]; warning: string | null } {
	const writes = command.writes ?? [];
	if (!command.writesUnknown) return { writes, warning: null };
	const scope = command.scope?.length
		? `${intentId ?? 'the intent'}'s scope (${command.scope.join(', ')})`
		: 'the intent’s scope';
	return {
		writes,
		warning:
			`This command may write files this preview cannot name (it changes folder, builds names ` +
			`from variables, or runs a script or program). Anything it writes outside ${scope} or ` +
			'in .orchestration/ or .git/ will be refused and put back when it ends; only the rest is kept.'
	};
}
