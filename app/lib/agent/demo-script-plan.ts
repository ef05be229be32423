import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
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

/** What the session's next model call does, given the conversation so far. */
export function planDemoTurn(
	script: ReplayScript,
	sessionId: string,
	prompt: LanguageModelV4Prompt
): DemoTurn {
	const owners = stepSessions(script);
	const steps = script.steps
		.map((step, index) => ({ step, number: index + 1 }))
		.filter((_, index) => owners[index] === sessionId);
	const sessionName = script.sessions?.[sessionId]?.name ?? sessionId;
	if (steps.length === 0) {
		const known = demoSessionsOf(script)
			.map((session) => session.id)
			.join(', ');
		return {
			texts: [
				`The demo script has no steps for the session "${sessionId}". Its sessions are: ${known}.`
			],
			finishReason: 'stop'
		};
	}

	const callPositions = steps.flatMap(({ step }, position) => ('call' in step ? [position] : []));
	const { completed, segmentStart } = progressOf(prompt, sessionId, callPositions.length);
	const gapStart = completed === 0 ? 0 : (callPositions[completed - 1] as number) + 1;
	const gapEnd =
		completed < callPositions.length ? (callPositions[completed] as number) : steps.length;
	const gap = steps.slice(gapStart, gapEnd);
	const closing = closingText(sessionName);
	const answered = answeredTexts(prompt.slice(segmentStart));

	if (completed === callPositions.length && answered.some((text) => text.includes(closing))) {
		return { texts: [finishedText(sessionName)], finishReason: 'stop' };
	}

	// Skip what was already shown and answered: everything up to the last human edit the person
	// was asked for and replied to.
	let resumeAt = 0;
	gap.forEach(({ step, number }, index) => {
		if ('human_edit' in step && answered.some((text) => text.includes(humanEditHeading(number))))
			resumeAt = index + 1;
	});

	const texts: string[] = [];
	for (const { step, number } of gap.slice(resumeAt)) {
		if ('say' in step) texts.push(step.say);
		else if ('human_edit' in step) {
			texts.push(humanEditText(step.human_edit, number));
			return { texts, finishReason: 'stop' };
		}
	}
	if (completed < callPositions.length) {
		const call = steps[callPositions[completed] as number]?.step;
		if (call && 'call' in call) {
			return {
				texts,
				toolCall: { ordinal: completed, toolName: call.call, input: call.input },
				finishReason: 'tool-calls'
			};
		}
	}
	texts.push(closing);
	return { texts, finishReason: 'stop' };
}

/**
 * How many of the session's calls have a result in the conversation (the highest call position
 * answered, so results of earlier calls may have been pruned), and where the messages after that
 * result begin.
 */
function progressOf(
	prompt: LanguageModelV4Prompt,
	sessionId: string,
	callCount: number
): { completed: number; segmentStart: number } {
	let completed = 0;
	let segmentStart = 0;
	prompt.forEach((message, index) => {
		if (message.role !== 'tool' && message.role !== 'assistant') return;
		for (const part of message.content) {
			if (part.type !== 'tool-result') continue;
			const parsed = parseDemoToolCallId(part.toolCallId);
			if (!parsed || parsed.sessionId !== sessionId || parsed.ordinal >= callCount) continue;
			if (parsed.ordinal + 1 >= completed) {
				completed = parsed.ordinal + 1;
				segmentStart = index + 1;
			}
		}
	});
	return { completed, segmentStart };
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

function humanEditHeading(stepNumber: number): string {
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
