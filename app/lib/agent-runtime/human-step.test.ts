import { describe, expect, it } from 'vitest';
import { changedLines, parseHumanStep } from './human-step.js';

const stepText = [
	'**Your turn (demo step 14):** open `src/a.ts` in the editor, change it to the version below and save it. Nothing is changed for you.',
	'```ts\nconst a = 1;\n// reviewed\nconst b = 2;\n```',
	'Send any message when you are done, and I will continue.'
].join('\n\n');

describe('parseHumanStep', () => {
	it('reads the path, the new content and what follows', () => {
		expect(parseHumanStep(stepText)).toEqual({
			stepNumber: 14,
			path: 'src/a.ts',
			content: 'const a = 1;\n// reviewed\nconst b = 2;\n',
			after: 'Send any message when you are done, and I will continue.'
		});
	});

	it('keeps inner fences of content that itself holds a fence', () => {
		const text =
			'**Your turn (demo step 2):** open `README.md` in the editor\n\n````md\n```js\nx\n```\n````\n\nSend any message.';
		expect(parseHumanStep(text)?.content).toBe('```js\nx\n```\n');
	});

	it('reads a deletion, and ignores other texts', () => {
		expect(
			parseHumanStep(
				'**Your turn (demo step 3):** delete `src/old.ts` in the file tree. Nothing is changed.\n\nSend any message.'
			)
		).toEqual({ stepNumber: 3, path: 'src/old.ts', content: null, after: 'Send any message.' });
		expect(parseHumanStep('Just a message about `src/a.ts`.')).toBeNull();
	});
});

describe('changedLines', () => {
	it('shows the changed lines with context and folds the rest', () => {
		const before = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`).join('\n') + '\n';
		const after = before.replace('line 10\n', 'line 10 changed\n');
		const lines = changedLines(before, after, 1);
		expect(lines).toEqual([
			{ kind: 'gap', text: '…', line: null },
			{ kind: 'same', text: 'line 9', line: 9 },
			{ kind: 'removed', text: 'line 10', line: 10 },
			{ kind: 'added', text: 'line 10 changed', line: 10 },
			{ kind: 'same', text: 'line 11', line: 11 },
			{ kind: 'gap', text: '…', line: null }
		]);
	});

	it('is empty of changes when nothing differs', () => {
		expect(changedLines('a\nb\n', 'a\nb\n').every((line) => line.kind !== 'added')).toBe(true);
	});
});
