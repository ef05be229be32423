import { contentHash } from '../hashing/sha256.js';
import { decodeText } from '../hashing/text-encoding.js';
import { changedRanges, rangesWithHashes } from '../mutations/change-ranges.js';
import { classifyMutation } from '../mutations/classify-mutation.js';
import type {
	MutationClass,
	TraceRange,
	UnsealedTraceRecord
} from '../ledger/agent-trace-record.js';
import type { FileChange } from '../tools/sandbox-ports.js';

export interface TraceAuthor {
	sessionId: string;
	contributor: 'ai' | 'human';
	/** `provider/model`; omitted for humans. */
	modelId?: string;
	intentId: string | null;
	tool: string;
	toolCallId: string | null;
	declaredClass: MutationClass | null;
}

/**
 * Turns one file change into an Agent Trace 0.1.0 record (unsealed: the ledger adds the chain
 * fields). Ranges are the changed lines of the new content with the hash of exactly those lines;
 * the mutation class is computed from the change, next to what the agent declared.
 */
export async function buildTraceRecord(options: {
	change: FileChange;
	author: TraceAuthor;
	id: string;
	timestamp: string;
	toolVersion: string;
	/** The git commit the change was made on (HEAD then); only a real one, never a guess. */
	revision?: string | null;
}): Promise<UnsealedTraceRecord> {
	const { change, author } = options;
	const beforeText = change.before ? decodeText(change.before) : null;
	const afterText = change.after ? decodeText(change.after) : null;
	const textual = (beforeText === null || beforeText.ok) && (afterText === null || afterText.ok);
	const before = beforeText?.ok ? beforeText.text : null;
	const after = afterText?.ok ? afterText.text : null;

	let ranges: TraceRange[] = [];
	if (after !== null && textual) {
		ranges = await rangesWithHashes(after, changedRanges(before, after));
	}
	const computed: MutationClass = textual
		? classifyMutation(change.path, before, change.after ? after : null).mutationClass
		: 'INTENT_EVOLUTION';

	const related = author.intentId
		? [
				{
					type: 'specification',
					url: `urn:threadline:intent:${encodeURIComponent(author.intentId)}`,
					value: author.intentId
				}
			]
		: [];
	return {
		version: '0.1.0',
		id: options.id,
		timestamp: options.timestamp,
		tool: { name: 'threadline', version: options.toolVersion },
		...(options.revision ? { vcs: { type: 'git' as const, revision: options.revision } } : {}),
		files: [
			{
				path: change.path,
				conversations: [
					{
						url: `urn:threadline:session:${encodeURIComponent(author.sessionId)}`,
						contributor:
							author.contributor === 'ai'
								? { type: 'ai', model_id: author.modelId ?? 'unknown/unknown' }
								: { type: 'human' },
						ranges,
						related
					}
				]
			}
		],
		metadata: {
			'dev.threadline': {
				intent_id: author.intentId,
				mutation_class: computed,
				declared_mutation_class: author.declaredClass,
				tool: author.tool,
				tool_call_id: author.toolCallId,
				session_id: author.sessionId,
				operation: change.after === null ? 'delete' : 'write',
				file_hash: change.after === null ? null : await contentHash(change.after)
			}
		}
	};
}
