import type { ToolError } from '../errors/tool-error.js';
import type { FileChange } from '../tools/sandbox-ports.js';

/** What one tool call ended with, as the model receives it plus what the post-hooks need. */
export type ToolOutcome =
	| {
			ok: true;
			output: unknown;
			changes: FileChange[];
			exitCode?: number;
			commandOutput?: string;
			/** The changes were already committed with their records (a shell transaction). */
			changesRecorded?: boolean;
	  }
	| {
			ok: false;
			error: ToolError;
			changes: FileChange[];
			exitCode?: number;
			commandOutput?: string;
			changesRecorded?: boolean;
	  };
