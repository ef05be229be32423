import { describe, expect, it } from 'vitest';
import { readYamlWithPositions, sortByPosition } from './yaml-position.js';

function read(text: string) {
	const result = readYamlWithPositions(text);
	if (!result.ok) throw new Error(`expected valid YAML: ${JSON.stringify(result.errors)}`);
	return result.yaml;
}

describe('readYamlWithPositions', () => {
	const text = 'title: Hello\nsandbox:\n  needs: any\nprompts:\n  - one\n  - two\nempty:\n';

	it('gives the plain data', () => {
		expect(read(text).data).toEqual({
			title: 'Hello',
			sandbox: { needs: 'any' },
			prompts: ['one', 'two'],
			empty: null
		});
	});

	it('places values, keys, list items and empty values', () => {
		const yaml = read(text);
		expect(yaml.valueAt(['title'])).toEqual({ line: 1, column: 8 });
		expect(yaml.valueAt(['sandbox', 'needs'])).toEqual({ line: 3, column: 10 });
		expect(yaml.keyAt(['sandbox', 'needs'])).toEqual({ line: 3, column: 3 });
		expect(yaml.valueAt(['prompts', 1])).toEqual({ line: 6, column: 5 });
		// An empty value points at its key: that is where the author will type.
		expect(yaml.valueAt(['empty'])).toEqual({ line: 7, column: 1 });
	});

	it('falls back to the closest existing node for a missing path', () => {
		const yaml = read(text);
		expect(yaml.valueAt(['sandbox', 'note'])).toEqual({ line: 3, column: 3 });
		expect(yaml.valueAt(['prompts', 9])).toEqual({ line: 5, column: 3 });
		expect(yaml.valueAt(['title', 'deeper'])).toEqual({ line: 1, column: 8 });
	});

	it('reports syntax errors with a place and a plain sentence', () => {
		const result = readYamlWithPositions('a: 1\na: 2\n');
		expect(result).toMatchObject({
			ok: false,
			errors: [
				{ line: 2, column: 1, message: 'The key "a" appears twice in the same map; keep one.' }
			]
		});
		const tabs = readYamlWithPositions('a:\n\tb: 1\n');
		expect(tabs.ok).toBe(false);
		const second = readYamlWithPositions('a: 1\n---\nb: 2\n');
		expect(!second.ok && second.errors[0]?.message).toMatch(/more than one YAML document/);
	});

	it('refuses alias bombs and self-referencing aliases instead of hanging', () => {
		const levels = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
		for (let level = 1; level < 8; level++) {
			const previous = String.fromCharCode(96 + level);
			const name = String.fromCharCode(97 + level);
			levels.push(`${name}: &${name} [${Array(10).fill(`*${previous}`).join(',')}]`);
		}
		const bomb = readYamlWithPositions(`${levels.join('\n')}\n`);
		expect(bomb.ok).toBe(false);
		const recursive = readYamlWithPositions('a: &a\n  b: *a\n');
		expect(!recursive.ok && recursive.errors[0]?.message).toMatch(/contains it/);
	});

	it('sorts messages by line, then column', () => {
		expect(
			sortByPosition([
				{ line: 3, column: 1, message: 'c' },
				{ line: 1, column: 5, message: 'b' },
				{ line: 1, column: 2, message: 'a' }
			]).map((message) => message.message)
		).toEqual(['a', 'b', 'c']);
	});
});
