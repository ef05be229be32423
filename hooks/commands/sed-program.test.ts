import { describe, expect, it } from 'vitest';
import { analyzeSedProgram } from './sed-program.js';

describe('analyzeSedProgram', () => {
	it.each([
		['s/a/b/g', [], false],
		['1,20p', [], false],
		['/start/,/end/d', [], false],
		['s/w x/e y/', [], false],
		['s|a;w b|c|', [], false],
		['y/abc/xyz/', [], false],
		['$!N; P; D', [], false],
		['/x/w out.txt', ['out.txt'], false],
		['s/a/b/gw changed.txt', ['changed.txt'], false],
		['1W first.txt', ['first.txt'], false],
		['/x/{ p; w inner.txt\n}', ['inner.txt'], false],
		['1e date', [], true],
		['s/.*/date/e', [], true],
		['a\\\nappended w text', [], false],
		['/re/I,+3 s/a/b/', [], false]
	])('%j writes %j, runs commands: %s', (program, writes, runsCommands) => {
		expect(analyzeSedProgram(program)).toEqual({ writes, runsCommands });
	});
});
