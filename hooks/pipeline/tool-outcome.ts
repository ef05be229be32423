import type { ToolError } from '../errors/tool-error.js';
import type { FileChange } from '../tools/sandbox-ports.js';

/** What one tool call ended with, as the model receives it plus what the post-hooks need. */
export type ToolOutcome =
	| { ok: true; output: unknown; changes: FileChange[]; exitCode?: number; commandOutput?: string }
	| {
			ok: false;
			error: ToolError;
			changes: FileChange[];
			exitCode?: number;
			commandOutput?: string;
	  };
