import { readFile } from 'node:fs/promises';
import { formatIntentsError, parseIntents } from '../../hooks/intents/parse-intents.js';
import { parseArguments } from './parse-arguments.js';
import { UsageError } from './usage-error.js';

export async function validateCommand(
	argv: string[],
	output: { out(text: string): void; err(text: string): void }
): Promise<number> {
	const { positional } = parseArguments(argv, {});
	if (positional.length !== 1)
		throw new UsageError(
			'validate takes exactly one file: threadline validate <active_intents.yaml>'
		);
	const file = positional[0] as string;
	let text: string;
	try {
		text = await readFile(file, 'utf8');
	} catch (error) {
		throw new UsageError(
			`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`
		);
	}
	const parsed = parseIntents(text);
	if (!parsed.ok) {
		for (const error of parsed.errors) output.err(`${file}:${formatIntentsError(error)}`);
		output.err(`${parsed.errors.length} error(s) in ${file}`);
		return 1;
	}
	const intents = parsed.document.intents;
	output.out(
		`${file}: valid — ${intents.length} intent(s): ${intents.map((intent) => `${intent.id} (${intent.status})`).join(', ')}`
	);
	return 0;
}
