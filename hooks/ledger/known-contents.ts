import { contentHash } from '../hashing/sha256.js';
import type { LedgerEvent } from './ledger-event.js';

/** How much text time travel may hold for one export (the grader's desk keeps many). */
export const knownContentLimits = { fileBytes: 1024 * 1024, totalBytes: 32 * 1024 * 1024 };

/**
 * The texts of the file versions a ledger names, by their `sha256:` hash, from what an export
 * holds: the workspace's files as exported (their last versions), every `write_to_file` content
 * as the model sent it (its conversation entry, or the call's recorded input), and each
 * `apply_diff` applied to the version before it. A text is kept only when its hash is one the
 * ledger records, so what time travel shows at an event is exactly what the chain says was there;
 * a version none of these give (a shell command's output, a cut input) stays a hash.
 */
export async function knownContents(
	events: readonly LedgerEvent[],
	files: ReadonlyMap<string, Uint8Array>
): Promise<Map<string, string>> {
	const wanted = new Set<string>();
	for (const event of events) {
		if (event.type === 'workspace-snapshot')
			for (const hash of Object.values(event.files ?? {})) wanted.add(hash);
		else if (event.type === 'mutation-record') {
			const hash = event.trace?.metadata?.['dev.threadline']?.file_hash;
			if (typeof hash === 'string') wanted.add(hash);
		}
	}
	const known = new Map<string, string>();
	let total = 0;
	const decoder = new TextDecoder('utf-8', { fatal: true });
	const keep = async (text: string): Promise<string | null> => {
		if (
			text.length > knownContentLimits.fileBytes ||
			total + text.length > knownContentLimits.totalBytes
		)
			return null;
		const hash = await contentHash(text);
		if (!wanted.has(hash) || known.has(hash)) return known.has(hash) ? hash : null;
		known.set(hash, text);
		total += text.length;
		return hash;
	};
	for (const content of files.values()) {
		if (content.byteLength > knownContentLimits.fileBytes) continue;
		let text: string;
		try {
			text = decoder.decode(content);
		} catch {
			continue;
		}
		await keep(text);
	}
	// Inputs as the model sent them (full unless cut), else as the call recorded them.
	const inputs = new Map<string, unknown>();
	for (const event of events) {
		if (event.type === 'conversation-entry' && event.tool_call && !event.cut?.input)
			inputs.set(event.tool_call.id, event.tool_call.input);
		else if (event.type === 'tool-call-start' && !inputs.has(event.tool_call_id))
			inputs.set(event.tool_call_id, event.input);
	}
	const current = new Map<string, string>();
	for (const event of events) {
		if (event.type === 'workspace-snapshot') {
			for (const [path, hash] of Object.entries(event.files ?? {})) current.set(path, hash);
			continue;
		}
		if (event.type !== 'mutation-record') continue;
		const links = event.trace.metadata['dev.threadline'];
		const path = event.trace.files[0]?.path;
		if (!path) continue;
		const input = links.tool_call_id ? inputs.get(links.tool_call_id) : undefined;
		const record =
			typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
		if (links.tool === 'write_to_file' && typeof record.content === 'string')
			await keep(record.content);
		else if (
			links.tool === 'apply_diff' &&
			typeof record.search === 'string' &&
			typeof record.replace === 'string'
		) {
			const before = known.get(current.get(path) ?? '');
			const at = before?.indexOf(record.search) ?? -1;
			if (before !== undefined && at !== -1)
				await keep(before.slice(0, at) + record.replace + before.slice(at + record.search.length));
		}
		if (typeof links.file_hash === 'string' && links.operation !== 'delete')
			current.set(path, links.file_hash);
		else current.delete(path);
	}
	return known;
}
