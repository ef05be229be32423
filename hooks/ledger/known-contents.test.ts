import { describe, expect, it } from 'vitest';
import { contentHash } from '../hashing/sha256.js';
import { conversationSession } from '../pipeline/conversation-session-kit.js';
import { knownContents } from './known-contents.js';

describe('the file versions time travel can show', () => {
	it('gives each recorded version from the export and the inputs the model sent, hash-checked', async () => {
		const events = await conversationSession();
		const encoder = new TextEncoder();
		const start = 'export const a = 1;\n';
		const written = 'export const expiresIn = 3600;\n';
		const known = await knownContents(
			events,
			new Map([
				['src/auth/jwt.ts', encoder.encode(start)],
				// A file the ledger never recorded in this form is not taken.
				['src/other.ts', encoder.encode('not recorded\n')]
			])
		);
		expect(known.get(await contentHash(start))).toBe(start);
		// Written by the model: from its conversation entry, not from the export's files.
		expect(known.get(await contentHash(written))).toBe(written);
		expect([...known.values()]).not.toContain('not recorded\n');
	});

	it('never takes a text whose hash the ledger does not name (a forged tool input)', async () => {
		const events = (await conversationSession()).map((event) =>
			event.type === 'conversation-entry' && event.tool_call?.name === 'write_to_file'
				? {
						...event,
						tool_call: {
							...event.tool_call,
							input: { ...(event.tool_call.input as object), content: 'forged\n' }
						}
					}
				: event
		);
		const known = await knownContents(events, new Map());
		expect([...known.values()]).not.toContain('forged\n');
	});
});
