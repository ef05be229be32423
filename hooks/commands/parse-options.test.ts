import { describe, expect, it } from 'vitest';
import { hasOption, optionValues, parseOptions } from './parse-options.js';

describe('parseOptions', () => {
	it('splits clustered short options and keeps operands in order', () => {
		const parsed = parseOptions(['-rf', 'a', '-v', 'b']);
		expect(parsed.options.map((option) => option.name)).toEqual(['r', 'f', 'v']);
		expect(parsed.operands).toEqual(['a', 'b']);
	});

	it('reads values attached or as the next word, for the letters that take one', () => {
		const parsed = parseOptions(['-oout.txt', '-t', 'dir', '-k2', 'in.txt'], {
			shortWithValue: 'otk'
		});
		expect(optionValues(parsed, 'o')).toEqual(['out.txt']);
		expect(optionValues(parsed, 't')).toEqual(['dir']);
		expect(optionValues(parsed, 'k')).toEqual(['2']);
		expect(parsed.operands).toEqual(['in.txt']);
	});

	it('reads long options with = or with the next word when declared', () => {
		const parsed = parseOptions(['--output=a', '--target-directory', 'b', '--force', 'c'], {
			longWithValue: ['target-directory']
		});
		expect(optionValues(parsed, 'output')).toEqual(['a']);
		expect(optionValues(parsed, 'target-directory')).toEqual(['b']);
		expect(hasOption(parsed, 'force')).toBe(true);
		expect(parsed.operands).toEqual(['c']);
	});

	it('treats everything after -- and a lone - as operands', () => {
		const parsed = parseOptions(['-f', '--', '-rf', '--help'], {});
		expect(parsed.operands).toEqual(['-rf', '--help']);
		expect(parseOptions(['-']).operands).toEqual(['-']);
	});

	it('gives null when a value is missing at the end', () => {
		const parsed = parseOptions(['-o'], { shortWithValue: 'o' });
		expect(parsed.options).toEqual([{ name: 'o', value: null }]);
		expect(optionValues(parsed, 'o')).toEqual([]);
	});
});
