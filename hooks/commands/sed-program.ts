/**
 * What a sed program can do besides printing: `w`/`W` commands and the `w` flag of `s` write files,
 * and `e` (command or `s` flag) runs shell commands. A small scanner rather than a regular expression,
 * so that `s/w x/y/` or a `;` inside a pattern are not mistaken for commands.
 */

export interface SedProgramEffects {
	/** Files the program writes, as written after `w`. */
	writes: string[];
	/** True when the program runs shell commands (`e`). */
	runsCommands: boolean;
}

export function analyzeSedProgram(program: string): SedProgramEffects {
	const scanner = new SedScanner(program);
	scanner.run();
	return { writes: scanner.writes, runsCommands: scanner.runsCommands };
}

/** Single-letter sed commands that take no argument and touch nothing outside the stream. */
const plainCommands = new Set('dDgGhHnNpPxz=FlLqQ{}'.split(''));

class SedScanner {
	readonly writes: string[] = [];
	runsCommands = false;
	private index = 0;

	constructor(private readonly program: string) {}

	run(): void {
		const program = this.program;
		while (this.index < program.length) {
			this.skip(' \t\n;');
			if (this.index >= program.length) return;
			this.readAddress();
			this.skip(' \t');
			if (program[this.index] === ',') {
				this.index += 1;
				this.skip(' \t');
				this.readAddress();
				this.skip(' \t');
			}
			while (program[this.index] === '!') {
				this.index += 1;
				this.skip(' \t');
			}
			const command = program[this.index];
			if (command === undefined) return;
			this.index += 1;
			this.readCommand(command);
		}
	}

	private readCommand(command: string): void {
		switch (command) {
			case '#':
			case 'a':
			case 'i':
			case 'c':
			case 'r':
			case 'R':
				this.readToEndOfLine();
				return;
			case 'w':
			case 'W':
				this.writes.push(this.readToEndOfLine().trim());
				return;
			case 'e':
				this.runsCommands = true;
				this.readToEndOfLine();
				return;
			case ':':
			case 'b':
			case 't':
			case 'T':
			case 'v':
				this.readUntil(';\n');
				return;
			case 's':
				this.readSubstitution();
				return;
			case 'y':
				this.readDelimitedParts(2);
				return;
			default:
				// Plain commands (and unknown letters, which sed itself rejects) have no side effect.
				if (plainCommands.has(command)) this.readUntil(';\n}', /[0-9 \t]/);
		}
	}

	private readSubstitution(): void {
		this.readDelimitedParts(2);
		for (;;) {
			const flag = this.program[this.index];
			if (flag === undefined || flag === ';' || flag === '\n' || flag === '}') return;
			this.index += 1;
			if (flag === 'e') this.runsCommands = true;
			if (flag === 'w') {
				this.writes.push(this.readToEndOfLine().trim());
				return;
			}
		}
	}

	/** Reads `<delimiter>part<delimiter>part<delimiter>`, honouring backslash escapes. */
	private readDelimitedParts(count: number): void {
		const delimiter = this.program[this.index];
		if (delimiter === undefined) return;
		this.index += 1;
		for (let part = 0; part < count; part += 1) this.readPast(delimiter);
	}

	private readAddress(): void {
		const program = this.program;
		const character = program[this.index];
		if (character === undefined) return;
		if (/[0-9+~]/.test(character)) {
			this.index += 1;
			while (/[0-9~]/.test(program[this.index] ?? '')) this.index += 1;
		} else if (character === '$') {
			this.index += 1;
		} else if (character === '/') {
			this.index += 1;
			this.readPast('/');
			while (/[IM]/.test(program[this.index] ?? '')) this.index += 1;
		} else if (character === '\\') {
			const delimiter = program[this.index + 1];
			this.index += 2;
			if (delimiter !== undefined) this.readPast(delimiter);
			while (/[IM]/.test(program[this.index] ?? '')) this.index += 1;
		}
	}

	private readPast(delimiter: string): void {
		const program = this.program;
		while (this.index < program.length) {
			const character = program[this.index]!;
			if (character === '\\') {
				this.index += 2;
			} else {
				this.index += 1;
				if (character === delimiter) return;
			}
		}
	}

	private readToEndOfLine(): string {
		const start = this.index;
		while (this.index < this.program.length && this.program[this.index] !== '\n') {
			// A backslash-newline continues `a`, `i` and `c` text onto the next line.
			if (this.program[this.index] === '\\') this.index += 1;
			this.index += 1;
		}
		return this.program.slice(start, this.index);
	}

	private readUntil(stops: string, allowed?: RegExp): void {
		while (this.index < this.program.length) {
			const character = this.program[this.index]!;
			if (stops.includes(character)) return;
			if (allowed !== undefined && !allowed.test(character)) return;
			this.index += 1;
		}
	}

	private skip(characters: string): void {
		while (this.index < this.program.length && characters.includes(this.program[this.index]!)) {
			this.index += 1;
		}
	}
}
