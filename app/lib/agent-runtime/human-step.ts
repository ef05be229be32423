import { diffArrays } from 'diff';

/** A "Your turn" step of the scripted demo: the person makes this edit, the demo waits. */
export interface HumanStep {
	stepNumber: number;
	path: string;
	/** The file's new content; null when the step asks to delete the file. */
	content: string | null;
	/** The text after the step (e.g. "Send any message when you are done…"). */
	after: string;
}

const headingPattern = /^\*\*Your turn \(demo step (\d+)\):\*\* (open|delete) `([^`]+)`/m;
const fencePattern = /^(`{3,})[^\n]*\n([\s\S]*?)\n\1[ \t]*$/m;

/**
 * Reads a demo's human step out of its message text (see demo-script-plan.ts), so the chat can
 * offer "open the file", the change as a diff and "copy the new text" instead of a whole file
 * to compare by eye. Null for any other text.
 */
export function parseHumanStep(text: string): HumanStep | null {
	const heading = headingPattern.exec(text);
	if (!heading) return null;
	const [, number, verb, path] = heading as unknown as [string, string, string, string];
	const afterHeading = text.slice(heading.index);
	if (verb === 'delete') {
		return { stepNumber: Number(number), path, content: null, after: lastParagraph(afterHeading) };
	}
	const fence = fencePattern.exec(afterHeading);
	if (!fence) return null;
	const content = `${fence[2]}\n`;
	const after = afterHeading.slice((fence.index ?? 0) + fence[0].length).trim();
	return { stepNumber: Number(number), path, content, after };
}

function lastParagraph(text: string): string {
	return text.split(/\n\n/).slice(1).join('\n\n').trim();
}

export interface DiffLine {
	kind: 'same' | 'added' | 'removed' | 'gap';
	text: string;
	/** 1-based line in the new text (added, same), else in the old one. */
	line: number | null;
}

/**
 * The change from `before` to `after` as lines: what was removed and added, with `context`
 * unchanged lines around each change; longer unchanged runs become one "gap" line.
 */
export function changedLines(before: string, after: string, context = 2): DiffLine[] {
	const split = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));
	const parts = diffArrays(split(before), split(after));
	const all: DiffLine[] = [];
	let oldLine = 1;
	let newLine = 1;
	for (const part of parts) {
		for (const text of part.value) {
			if (part.added) all.push({ kind: 'added', text, line: newLine++ });
			else if (part.removed) all.push({ kind: 'removed', text, line: oldLine++ });
			else {
				all.push({ kind: 'same', text, line: newLine });
				oldLine++;
				newLine++;
			}
		}
	}
	const near = all.map((entry, index) =>
		all
			.slice(Math.max(0, index - context), index + context + 1)
			.some((candidate) => candidate.kind !== 'same')
	);
	const shown: DiffLine[] = [];
	all.forEach((entry, index) => {
		if (near[index]) shown.push(entry);
		else if (shown.at(-1)?.kind !== 'gap') shown.push({ kind: 'gap', text: '…', line: null });
	});
	return shown;
}
