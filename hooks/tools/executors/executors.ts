import type { ToolName } from '../tool-catalog.js';
import { applyDiff } from './apply-diff.js';
import { completeIntent } from './complete-intent.js';
import { deleteFile } from './delete-file.js';
import type { Executor } from './execution-context.js';
import { executeCommand } from './execute-command.js';
import { listFiles } from './list-files.js';
import { readFile } from './read-file.js';
import { recordLesson } from './record-lesson.js';
import { requestScopeExpansion } from './request-scope-expansion.js';
import { searchFiles } from './search-files.js';
import { selectActiveIntent } from './select-active-intent.js';
import { writeToFile } from './write-to-file.js';

export const executors: Record<ToolName, Executor> = {
	select_active_intent: selectActiveIntent,
	list_files: listFiles,
	read_file: readFile,
	search_files: searchFiles,
	write_to_file: writeToFile,
	apply_diff: applyDiff,
	delete_file: deleteFile,
	execute_command: executeCommand,
	record_lesson: recordLesson,
	request_scope_expansion: requestScopeExpansion,
	complete_intent: completeIntent
};
