/**
 * getopt-like parsing of a command's arguments, enough to tell options from operands (the paths a
 * command acts on). Each command says which of its options take a value, because `-t DIR` and
 * `-o FILE` would otherwise be read as an option followed by an operand.
 */

export interface ParsedOption {
	/** A short option letter (`r`) or a long option name without dashes (`recursive`). */
	name: string;
	value: string | null;
}

export interface ParsedOptions {
	options: ParsedOption[];
	operands: string[];
}

export interface OptionSpec {
	/** Short letters that take a value, attached (`-oFILE`) or as the next word (`-o FILE`). */
	shortWithValue?: string;
	/** Long names that take a value, as `--name=VALUE` or `--name VALUE`. */
	longWithValue?: readonly string[];
}

export function parseOptions(args: readonly string[], spec: OptionSpec = {}): ParsedOptions {
	const shortWithValue = spec.shortWithValue ?? '';
	const longWithValue = new Set(spec.longWithValue ?? []);
	const options: ParsedOption[] = [];
	const operands: string[] = [];
	let index = 0;
	while (index < args.length) {
		const argument = args[index]!;
		index += 1;
		if (argument === '--') {
			operands.push(...args.slice(index));
			break;
		}
		if (argument.startsWith('--')) {
			const equals = argument.indexOf('=');
			if (equals !== -1) {
				options.push({ name: argument.slice(2, equals), value: argument.slice(equals + 1) });
			} else {
				const name = argument.slice(2);
				if (longWithValue.has(name)) {
					options.push({ name, value: args[index] ?? null });
					index += 1;
				} else {
					options.push({ name, value: null });
				}
			}
			continue;
		}
		if (argument.startsWith('-') && argument.length > 1) {
			for (let letterIndex = 1; letterIndex < argument.length; letterIndex += 1) {
				const letter = argument[letterIndex]!;
				if (shortWithValue.includes(letter)) {
					const attached = argument.slice(letterIndex + 1);
					if (attached !== '') {
						options.push({ name: letter, value: attached });
					} else {
						options.push({ name: letter, value: args[index] ?? null });
						index += 1;
					}
					break;
				}
				options.push({ name: letter, value: null });
			}
			continue;
		}
		operands.push(argument);
	}
	return { options, operands };
}

export function hasOption(parsed: ParsedOptions, ...names: string[]): boolean {
	return parsed.options.some((option) => names.includes(option.name));
}

/** Values of the named options, in order; options given without a value are skipped. */
export function optionValues(parsed: ParsedOptions, ...names: string[]): string[] {
	const values: string[] = [];
	for (const option of parsed.options) {
		if (names.includes(option.name) && option.value !== null) values.push(option.value);
	}
	return values;
}
