import { UsageError } from './usage-error.js';

/** Positional arguments and `--name value` / `--flag` options; unknown options are errors. */
export function parseArguments(
	argv: string[],
	known: { values?: string[]; flags?: string[] }
): { positional: string[]; values: Map<string, string>; flags: Set<string> } {
	const positional: string[] = [];
	const values = new Map<string, string>();
	const flags = new Set<string>();
	for (let index = 0; index < argv.length; index++) {
		const argument = argv[index] ?? '';
		if (!argument.startsWith('--')) {
			positional.push(argument);
			continue;
		}
		const [name, inline] = argument.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
		if (known.flags?.includes(name)) {
			flags.add(name);
		} else if (known.values?.includes(name)) {
			const value = inline ?? argv[++index];
			if (value === undefined || value.startsWith('--'))
				throw new UsageError(`--${name} needs a value`);
			values.set(name, value);
		} else {
			throw new UsageError(`unknown option --${name}`);
		}
	}
	return { positional, values, flags };
}
