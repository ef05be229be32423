import type { Transcript, TranscriptItem } from './transcript.js';

/** How much of a tool input or output a markdown transcript shows (the JSON form has it all). */
const shownJsonCharacters = 600;

/**
 * The transcript as markdown, one line (or block) per item in ledger order, each with its seq
 * so a grader can find it in `audit.jsonl` and `conversation.jsonl`. Texts are quoted, never
 * rendered: a learner's or a model's markdown cannot forge a heading or a verdict line.
 */
export function renderTranscriptMarkdown(
	transcript: Transcript,
	header: { title: string; verdict: string }
): string {
	const lines: string[] = [`# Transcript: ${oneLine(header.title)}`, '', header.verdict, ''];
	if (transcript.conversationEntries === 0)
		lines.push(
			'_No conversation entries in this ledger (an export from an older Threadline): tool calls and decisions only._',
			''
		);
	for (const item of transcript.items) lines.push(...itemLines(item));
	return lines.join('\n') + '\n';
}

function itemLines(item: TranscriptItem): string[] {
	const where = `\`${item.seq}\` [${oneLine(item.session)}]`;
	switch (item.kind) {
		case 'message': {
			const cut = item.cut ? ` (cut: ${describeCut(item.cut)})` : '';
			if (item.role === 'user')
				return [`${where} **Learner**${cut}:`, ...quoted(item.text ?? ''), ''];
			if (item.role === 'assistant') {
				const out: string[] = [];
				const model = item.model ? ` (${oneLine(item.model)})` : '';
				if (item.text !== undefined)
					out.push(`${where} **Model**${model}${cut}:`, ...quoted(item.text), '');
				if (item.toolCall)
					out.push(
						`${where} → calls \`${oneLine(item.toolCall.name)}\` (${oneLine(item.toolCall.id)})${item.text === undefined ? cut : ''}: ${code(json(item.toolCall.input))}`
					);
				return out;
			}
			const result = item.toolResult;
			if (!result) return [];
			return [
				`${where} ← ${result.ok ? 'result' : 'error'} of ${oneLine(result.id)}${cut}: ${code(json(result.ok ? result.output : result.error))}`
			];
		}
		case 'decision':
			return [
				`${where} hooks: **${item.decision}** ${oneLine(item.tool)} (${oneLine(item.toolCallId)})${item.hooks.length ? ` by ${item.hooks.map(oneLine).join(', ')}` : ''}${item.code ? ` — ${item.code}: ${oneLine(item.message ?? '')}` : ''}`
			];
		case 'approval':
			return item.approved === undefined
				? [
						`${where} approval asked for ${oneLine(item.toolCallId)}: ${oneLine((item.asked ?? []).join('; '))}`
					]
				: [
						`${where} approval ${item.approved ? 'given' : 'refused'} by ${oneLine(item.by ?? '?')}${item.reason ? `: ${oneLine(item.reason)}` : ''}`
					];
		case 'change': {
			const cause = [
				item.cause.userSeq === null ? 'no learner message' : `asked at \`${item.cause.userSeq}\``,
				item.cause.assistantSeq === null ? null : `model said at \`${item.cause.assistantSeq}\``,
				item.cause.toolCallSeq === null ? null : `call at \`${item.cause.toolCallSeq}\``
			]
				.filter(Boolean)
				.join(', ');
			return [
				`${where} changed \`${oneLine(item.path)}\` (${item.contributor}, ${oneLine(item.tool)}${item.intentId ? `, ${oneLine(item.intentId)}` : ''}; ${cause})`
			];
		}
		case 'note':
			return [`${where} ${oneLine(item.text)}`];
	}
}

function quoted(text: string): string[] {
	return text.split('\n').map((line) => `> ${line}`);
}

function json(value: unknown): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
	return text.length > shownJsonCharacters
		? `${text.slice(0, shownJsonCharacters)}… (${text.length} characters)`
		: text;
}

/** Inline code that no backtick inside can close early. */
function code(text: string): string {
	const flat = oneLine(text);
	const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
	const fence = '`'.repeat(longest + 1);
	return `${fence} ${flat} ${fence}`;
}

function oneLine(text: string): string {
	return String(text).replace(/[\r\n\u2028\u2029]+/g, ' ');
}

function describeCut(cut: Record<string, { bytes: number; sha256: string }>): string {
	return Object.entries(cut)
		.map(([field, value]) => `${field} ${value.bytes} bytes, ${value.sha256}`)
		.join('; ');
}
