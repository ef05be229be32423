/**
 * The system prompt, rebuilt every turn: the governance protocol, the intents the agent may choose
 * from (ids, names and status only, so the constraints and scope of other intents never leak into
 * its work), the active intent's `<intent_context>`, the sandbox and recent lessons.
 * Deterministic: the same input always gives the same prompt.
 */
import type { Intent } from '../intents/intent.js';
import type { SandboxCapabilities } from '../tools/sandbox-ports.js';
import { escapeXml, escapeXmlAttribute } from './escape-xml.js';

export interface SystemPromptInput {
	intents: Intent[];
	/** The `<intent_context>` block of the active intent (from buildIntentContext), or `null`. */
	activeIntentContext: string | null;
	sandbox: SandboxCapabilities;
	/** Lesson texts, oldest first. */
	recentLessons: string[];
	sessionName?: string;
}

const protocol = `You are an intent-driven coding agent working in Threadline, a governed IDE. Every tool call you make passes a hook pipeline that checks it against the active intent, and every change you make is recorded in a hash-chained trace that a grader will read.

<protocol>
1. Your FIRST action must be \`select_active_intent\` with the id of an intent whose status is IN_PROGRESS. Until you have selected one, every other tool call is refused with \`intent_required\`. DRAFT, BLOCKED and COMPLETED intents cannot be selected.
2. Every \`write_to_file\` and \`apply_diff\` call carries \`intent_id\` (the active intent) and \`mutation_class\`: AST_REFACTOR when behaviour stays the same (rename, extract, move, reformat), INTENT_EVOLUTION when behaviour is new or changed. \`delete_file\` carries \`intent_id\` too.
3. Stay inside the active intent's owned_scope. To change a path outside it, call \`request_scope_expansion\` with the paths and a reason, and wait for the answer; never work around the scope (shell commands that change files outside it are reverted).
4. Nothing under \`.orchestration/\` is ever writable: it is the governance record.
5. Read a file with \`read_file\` before you change it, and read it again if it may have changed since; a change based on a stale read is refused with \`stale_file\`.
6. Shell commands are classified before they run: read-only commands run directly, destructive ones wait for the user's approval, critical ones (such as \`rm -rf /\`, force pushes, piping a download into a shell) are always denied.
7. When a tool answers with a ToolError ({"status":"error","code":…,"message":…,"suggestion":…}), read its code and suggestion and correct your next call; do not repeat the same call unchanged.
8. When you learn something later work should know (a convention, a failed approach, the fix for an error), record it with \`record_lesson\`.
9. When the acceptance criteria of the active intent are met, finish with \`complete_intent\`.
</protocol>`;

export function buildSystemPrompt(input: SystemPromptInput): string {
	const sections = [protocol];
	if (input.sessionName !== undefined && input.sessionName.trim() !== '') {
		sections.push(`<session name="${escapeXmlAttribute(input.sessionName)}"/>`);
	}
	sections.push(renderIntents(input.intents));
	sections.push(renderActiveIntent(input.activeIntentContext));
	sections.push(renderSandbox(input.sandbox));
	sections.push(renderLessons(input.recentLessons));
	return sections.join('\n\n');
}

function renderIntents(intents: Intent[]): string {
	if (intents.length === 0) {
		return '<intents/>\nThere are no intents yet. Do not change files; tell the user an intent is needed first.';
	}
	const lines = intents.map(
		(intent) =>
			`  <intent id="${escapeXmlAttribute(intent.id)}" name="${escapeXmlAttribute(intent.name)}" status="${escapeXmlAttribute(intent.status)}"/>`
	);
	const block = ['<intents>', ...lines, '</intents>'].join('\n');
	if (intents.some((intent) => intent.status === 'IN_PROGRESS')) return block;
	return `${block}\nNo intent is IN_PROGRESS, so none can be selected. Do not change files; tell the user.`;
}

function renderActiveIntent(context: string | null): string {
	if (context === null || context.trim() === '') {
		return '<active_intent/>\nNo intent is selected yet. Call `select_active_intent` with an IN_PROGRESS intent before anything else.';
	}
	return `<active_intent>\n${context.trim()}\n</active_intent>`;
}

function renderSandbox(sandbox: SandboxCapabilities): string {
	const commands = sandbox.commands.map((command) => escapeXml(command)).join(' ');
	return [
		`<sandbox kind="${escapeXmlAttribute(sandbox.kind)}">`,
		`  <description>${escapeXml(sandbox.description)}</description>`,
		sandbox.commands.length > 0 ? `  <commands>${commands}</commands>` : '  <commands/>',
		'</sandbox>'
	].join('\n');
}

function renderLessons(lessons: string[]): string {
	if (lessons.length === 0) return '<recent_lessons/>';
	const lines = lessons.map((lesson) => `  <lesson>${escapeXml(lesson)}</lesson>`);
	return ['<recent_lessons>', ...lines, '</recent_lessons>'].join('\n');
}
