import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { decideOutcome } from '../../../hooks/replay/outcome-branches.js';
import type { ReplayScript, ReplayStep } from '../../../hooks/replay/replay-script.js';

/**
 * How the scenario's demo script is played as a model: which steps belong to a session, and,
 * from the conversation alone, what the next model call says and calls. The conversation is the
 * only state, so a reload, a regenerate or a person typing in between never confuses it.
 */

/** The session of steps that name none (the same default as `threadline replay`). */
export const defaultDemoSessionId = 'agent';

export interface DemoSession {
	id: string;
	name: string;
	/** `provider/model` for the trace, e.g. `demo/scripted`. */
	modelId: string;
}

/**
 * The session each step belongs to. A `human_edit` without a session belongs to the session
 * whose work it interrupts (the agent step before it, else the one after it), so the person is
 * asked for the edit at the right moment of that session.
 */
export function stepSessions(script: ReplayScript): string[] {
	const ownerOf = (step: ReplayStep): string | undefined =>
		'human_edit' in step ? step.session : (step.session ?? defaultDemoSessionId);
	return script.steps.map((step, index) => {
		const own = ownerOf(step);
		if (own !== undefined) return own;
		for (let before = index - 1; before >= 0; before--) {
			const owner = ownerOf(script.steps[before] as ReplayStep);
			if (owner !== undefined) return owner;
		}
		for (let after = index + 1; after < script.steps.length; after++) {
			const owner = ownerOf(script.steps[after] as ReplayStep);
			if (owner !== undefined) return owner;
		}
		return defaultDemoSessionId;
	});
}

/** The sessions that have steps, in the order they first act (for the agent tabs). */
export function demoSessionsOf(script: ReplayScript): DemoSession[] {
	const ids = [...new Set(stepSessions(script))];
	return ids.map((id) => ({
		id,
		name: script.sessions?.[id]?.name ?? id,
		modelId: script.sessions?.[id]?.model ?? script.model
	}));
}

const toolCallIdPattern = /^demo-(.+)-(\d+)-([A-Za-z0-9]+)$/;

/** Tool call ids carry the session and the call's position, so progress survives pruning. */
export function demoToolCallId(sessionId: string, ordinal: number, suffix: string): string {
	return `demo-${sessionId}-${ordinal}-${suffix}`;
}

export function parseDemoToolCallId(id: string): { sessionId: string; ordinal: number } | null {
	const match = toolCallIdPattern.exec(id);
	if (!match) return null;
	return { sessionId: match[1] as string, ordinal: Number(match[2]) };
}

export interface DemoToolCall {
	/** 0-based position of the call among the session's calls. */
	ordinal: number;
	toolName: string;
	input: Record<string, unknown>;
}

export interface DemoTurn {
	/** Paragraphs to stream as the assistant's text, in order. */
	texts: string[];
	toolCall?: DemoToolCall;
	/** `tool-calls` when a call follows; `stop` when the person is asked to act or the script ended. */
	finishReason: 'tool-calls' | 'stop';
}

export interface DemoPlanOptions {
	/** The scenario's suggested prompts: sending one starts the demo too. */
	suggestedPrompts?: readonly string[];
}

/** What the session's next model call does, given the conversation so far. */
export function planDemoTurn(
	script: ReplayScript,
	sessionId: string,
	prompt: LanguageModelV4Prompt,
	options: DemoPlanOptions = {}
): DemoTurn {
	const owners = stepSessions(script);
	const steps = script.steps
		.map((step, index) => ({ step, number: index + 1 }))
		.filter((_, index) => owners[index] === sessionId);
	const sessionName = script.sessions?.[sessionId]?.name ?? sessionId;
	if (steps.length === 0) return stopWith(notInScriptText(script));

	const callPositions = steps.flatMap(({ step }, position) => ('call' in step ? [position] : []));
	const progress = progressOf(prompt, sessionId, callPositions.length);
	const answered = answeredTexts(prompt.slice(progress.segmentStart));
	const closing = closingText(sessionName);

	// What happened to the last call decides where the script goes: never narrate an outcome
	// the call did not get.
	let skip = 0;
	let branchSay: string | null = null;
	let stopped: DemoTurn | null = null;
	const lastPosition =
		progress.completed > 0 ? (callPositions[progress.completed - 1] as number) : -1;
	const lastStep = lastPosition >= 0 ? steps[lastPosition]?.step : undefined;
	const last = prompt.at(-1);
	// After a pause (an outcome the script did not plan, or a branch that stops), the person's
	// answer is the next move: continue, retry the step, or skip the next one. Never a dead end.
	let resumed = false;
	if (lastStep && 'call' in lastStep && progress.outcome) {
		const decision = decideOutcome(lastStep, progress.outcome.code);
		const pausedText =
			decision.kind === 'off-script'
				? [offScriptOutcomeText(lastStep, progress.outcome)]
				: decision.branch?.then === 'stop'
					? [...(decision.branch.say ? [decision.branch.say] : []), stoppedText(sessionName)]
					: null;
		if (pausedText) {
			const asked = answered.some((text) => text.includes(nextMovesMarker));
			const move = asked && last?.role === 'user' ? classifyNextMove(userText(last)) : null;
			if (move === 'retry')
				return {
					texts: [`Playing step ${lastStepNumber(steps, lastPosition)} again.`],
					toolCall: {
						ordinal: progress.completed - 1,
						toolName: lastStep.call,
						input: lastStep.input
					},
					finishReason: 'tool-calls'
				};
			if (move === 'continue' || move === 'skip') {
				resumed = true;
				skip = move === 'skip' ? 1 : 0;
			} else stopped = stopWith(...pausedText);
		} else if (decision.kind !== 'off-script' && decision.branch) {
			branchSay = decision.branch.say ?? null;
			skip = decision.branch.skip ?? 0;
		}
	}

	const gapStart = lastPosition + 1 + skip;
	const nextCall = callPositions.findIndex((position) => position >= gapStart);
	const gapEnd = nextCall === -1 ? steps.length : (callPositions[nextCall] as number);
	const gap = steps.slice(gapStart, gapEnd);
	const finished = nextCall === -1 && answered.some((text) => text.includes(closing));
	if (stopped) return stopped;
	if (finished) return stopWith(finishedText(sessionName));

	// A person's message is answered for what it is: the demo only plays its script.
	let note: string | null = null;
	if (
		!resumed &&
		last?.role === 'user' &&
		!lastAssistantText(prompt).includes(humanEditHeading(''))
	) {
		const started = progress.completed > 0 || answered.some((line) => line.includes('Your turn'));
		const request = classifyRequest(userText(last), options.suggestedPrompts ?? []);
		if (request === 'other') return stopWith(offScriptRequestText(userText(last), started));
		if (request === 'suggested' && !started) note = suggestedPromptNote;
	}

	// Skip what was already shown and answered: everything up to the last human edit the person
	// was asked for and replied to.
	let resumeAt = 0;
	gap.forEach(({ step, number }, index) => {
		if ('human_edit' in step && answered.some((text) => text.includes(humanEditHeading(number))))
			resumeAt = index + 1;
	});

	const texts: string[] = [];
	if (note) texts.push(note);
	if (branchSay && resumeAt === 0) texts.push(branchSay);
	for (const { step, number } of gap.slice(resumeAt)) {
		if ('say' in step) texts.push(step.say);
		else if ('human_edit' in step) {
			texts.push(humanEditText(step.human_edit, number));
			return { texts, finishReason: 'stop' };
		}
	}
	if (nextCall !== -1) {
		const call = steps[callPositions[nextCall] as number]?.step;
		if (call && 'call' in call) {
			return {
				texts,
				toolCall: { ordinal: nextCall, toolName: call.call, input: call.input },
				finishReason: 'tool-calls'
			};
		}
	}
	texts.push(closing);
	return { texts, finishReason: 'stop' };
}

function stopWith(...texts: string[]): DemoTurn {
	return { texts, finishReason: 'stop' };
}

/** A call's outcome as the model saw it: `ok`, or the ToolError code (and its message). */
export interface DemoOutcome {
	code: string;
	message: string | null;
}

/** Reads the outcome of a tool result part: errors carry a ToolError (JSON) or a plain text. */
export function outcomeOfToolResult(output: unknown): DemoOutcome {
	if (typeof output !== 'object' || output === null) return { code: 'ok', message: null };
	const { type, value } = output as { type?: string; value?: unknown };
	if (type === 'execution-denied') return { code: 'user_rejected', message: null };
	if (type !== 'error-text' && type !== 'error-json') return { code: 'ok', message: null };
	let parsed: unknown = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value);
		} catch {
			return { code: 'error', message: value };
		}
	}
	const record = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as {
		code?: unknown;
		message?: unknown;
	};
	return {
		code: typeof record.code === 'string' ? record.code : 'error',
		message: typeof record.message === 'string' ? record.message : null
	};
}

const startWords =
	/\b(demo|start|begin|run|play|go|continue|next|resume|yes|ok|okay|sure|proceed|done)\b/i;

/** Start words run the demo; a suggested prompt too (with a note); anything else is off script. */
export function classifyRequest(
	text: string,
	suggestedPrompts: readonly string[]
): 'start' | 'suggested' | 'other' {
	const normalized = normalize(text);
	const suggested =
		normalized !== '' &&
		suggestedPrompts.some((prompt) => {
			const candidate = normalize(prompt);
			return (
				candidate === normalized || (normalized.length >= 20 && candidate.includes(normalized))
			);
		});
	if (suggested) return 'suggested';
	return startWords.test(text) ? 'start' : 'other';
}

function normalize(text: string): string {
	return text
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, ' ')
		.trim();
}

const suggestedPromptNote =
	'I am the scripted demo agent: I play this scenario’s whole script rather than your exact request (choose a real model in Settings for that).';

function offScriptRequestText(text: string, started: boolean): string {
	const excerpt = text.trim().replace(/\s+/g, ' ');
	const quoted = excerpt.length > 60 ? `${excerpt.slice(0, 60)}…` : excerpt;
	return `I am the scripted demo agent, so I cannot act on “${quoted}”: I only play this scenario’s script — send “${started ? 'continue' : 'Run the demo'}” for its next step, or choose a real model in Settings to work on your own requests.`;
}

function subjectOf(input: Record<string, unknown>): string {
	for (const key of ['path', 'command', 'intent_id']) {
		const value = input[key];
		if (typeof value === 'string')
			return ` (${value.length > 60 ? `${value.slice(0, 60)}…` : value})`;
	}
	return '';
}

function offScriptOutcomeText(
	step: { call: string; input: Record<string, unknown>; expect?: string },
	outcome: DemoOutcome
): string {
	const expected = step.expect === 'ok' ? 'to succeed' : `to be blocked with ${step.expect}`;
	const got =
		outcome.code === 'ok'
			? 'it succeeded'
			: outcome.code === 'user_rejected'
				? 'you rejected it (user_rejected)'
				: `it ended with ${outcome.code}${outcome.message ? ` (${outcome.message.slice(0, 200)})` : ''}`;
	return `That did not go as scripted: the script expected \`${step.call}\`${subjectOf(step.input)} ${expected}, but ${got}. ${nextMovesText}`;
}

function stoppedText(sessionName: string): string {
	return `The script for ${sessionName} stops here, but you can go on. ${nextMovesText}`;
}

/** The words that mark a pause the person answers with a next move (see classifyNextMove). */
const nextMovesMarker = 'The demo can go on from here';

const nextMovesText = `${nextMovesMarker}, with your own edits kept: send “continue” to play the script’s next step, “retry” to play this step again (e.g. to answer the approval the other way), or “skip” to leave out the next step too. Nothing needs a reset; a real model in Settings can also take over.`;

/** The person's answer to a pause: play the step again, skip the next one, or go on. */
export function classifyNextMove(text: string): 'retry' | 'skip' | 'continue' | 'other' {
	if (/\b(retry|again|replay|redo|repeat)\b/i.test(text)) return 'retry';
	if (/\bskip\b/i.test(text)) return 'skip';
	return startWords.test(text) ? 'continue' : 'other';
}

function lastStepNumber(steps: { number: number }[], position: number): number {
	return steps[position]?.number ?? position + 1;
}

function notInScriptText(script: ReplayScript): string {
	const names = demoSessionsOf(script).map((session) => session.name);
	const list =
		names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
	return `This session is not part of the scripted demo, which plays only ${list} (in their own tabs). The demo cannot take requests here: to work with an agent in this session, choose a real model in Settings.`;
}

function userText(message: LanguageModelV4Prompt[number]): string {
	if (message.role !== 'user') return '';
	return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

function lastAssistantText(prompt: LanguageModelV4Prompt): string {
	for (let index = prompt.length - 1; index >= 0; index--) {
		const message = prompt[index];
		if (message?.role !== 'assistant') continue;
		return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
	}
	return '';
}

/**
 * How many of the session's calls have a result in the conversation (the highest call position
 * answered, so results of earlier calls may have been pruned), where the messages after that
 * result begin, and how that call ended.
 */
function progressOf(
	prompt: LanguageModelV4Prompt,
	sessionId: string,
	callCount: number
): { completed: number; segmentStart: number; outcome: DemoOutcome | null } {
	let completed = 0;
	let segmentStart = 0;
	let outcome: DemoOutcome | null = null;
	prompt.forEach((message, index) => {
		if (message.role !== 'tool' && message.role !== 'assistant') return;
		for (const part of message.content) {
			if (part.type !== 'tool-result') continue;
			const parsed = parseDemoToolCallId(part.toolCallId);
			if (!parsed || parsed.sessionId !== sessionId || parsed.ordinal >= callCount) continue;
			if (parsed.ordinal + 1 >= completed) {
				completed = parsed.ordinal + 1;
				segmentStart = index + 1;
				outcome = outcomeOfToolResult(part.output);
			}
		}
	});
	return { completed, segmentStart, outcome };
}

/** Assistant texts that a person has replied to (a user message came after them). */
function answeredTexts(messages: LanguageModelV4Prompt): string[] {
	const answered: string[] = [];
	let pending: string[] = [];
	for (const message of messages) {
		if (message.role === 'assistant') {
			for (const part of message.content) if (part.type === 'text') pending.push(part.text);
		} else if (message.role === 'user') {
			answered.push(...pending);
			pending = [];
		}
	}
	return answered;
}

function humanEditHeading(stepNumber: number | ''): string {
	return `Your turn (demo step ${stepNumber})`;
}

function humanEditText(edit: { path: string; content: string | null }, stepNumber: number): string {
	const heading = `**${humanEditHeading(stepNumber)}:**`;
	const resume = 'Send any message when you are done, and I will continue.';
	if (edit.content === null) {
		return `${heading} delete \`${edit.path}\` in the file tree. Nothing is changed for you: the script expects a person to make this change.\n\n${resume}`;
	}
	const longestBacktickRun = Math.max(
		0,
		...[...edit.content.matchAll(/`+/g)].map((match) => match[0].length)
	);
	const fence = '`'.repeat(Math.max(3, longestBacktickRun + 1));
	const language = /\.([A-Za-z0-9]+)$/.exec(edit.path)?.[1] ?? '';
	const body = edit.content.endsWith('\n') ? edit.content : `${edit.content}\n`;
	return [
		`${heading} open \`${edit.path}\` in the editor, change it to the version below and save it. Nothing is changed for you: the script expects a person to make this edit.`,
		`${fence}${language}\n${body}${fence}`,
		resume
	].join('\n\n');
}

function closingText(sessionName: string): string {
	return `That was the last step of the scripted demo for ${sessionName}. Every call above is in the trace; choose a real model in Settings to keep going.`;
}

function finishedText(sessionName: string): string {
	return `The scripted demo for ${sessionName} has no steps left. To keep working, choose a real model in Settings.`;
}
