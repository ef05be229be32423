import { randomInt } from 'node:crypto';
import { newToken } from '../../server/tokens.js';
import { UsageError } from './usage-error.js';

/** Unambiguous letters and digits (no 0/O, 1/I/L) for a code people type. */
const codeAlphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A class code like `K7QM-RX4P-9HTW-CN2E`: 16 characters of 31, about 79 bits. */
export function newClassCode(): string {
	const groups: string[] = [];
	for (let group = 0; group < 4; group++) {
		let text = '';
		for (let index = 0; index < 4; index++) text += codeAlphabet[randomInt(codeAlphabet.length)];
		groups.push(text);
	}
	return groups.join('-');
}

/** `threadline class init`: prints the environment that turns class mode on. */
export function classCommand(
	argv: string[],
	output: { out(text: string): void; err(text: string): void }
): number {
	if (argv[0] !== 'init' || argv.length !== 1) {
		throw new UsageError('usage: threadline class init');
	}
	output.out(
		'# Class mode for `npm start`: keep the instructor token secret; give learners the code.'
	);
	output.out(`THREADLINE_CLASS_CODE=${newClassCode()}`);
	output.out(`THREADLINE_INSTRUCTOR_TOKEN=${newToken('tl_instructor')}`);
	output.out(
		'# Optional: THREADLINE_CLASS_ID=<a label>, THREADLINE_DATA_DIR=./data, DATABASE_URL=postgres://…'
	);
	return 0;
}
