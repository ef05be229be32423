import { toolErrorCodes } from '../errors/tool-error.js';
import { parseReplayScript } from '../replay/replay-script.js';
import { isKnownTool, toolInputSchemas } from '../tools/tool-catalog.js';
import { readYamlWithPositions, sortByPosition, type YamlMessage } from '../yaml/yaml-position.js';

const expectations: readonly string[] = ['ok', ...toolErrorCodes];

/**
 * A scenario's demo agent: a valid replay script whose `expect` values can actually happen and
 * whose calls name real tools. A typo in either would only surface when CI replays the demo.
 */
export function checkDemoScript(text: string): YamlMessage[] {
	const parsed = parseReplayScript(text);
	if (!parsed.ok) return sortByPosition(parsed.errors);
	// Positions need a second parse of the whole script: only when there is a problem to place
	// (the IDE checks the built-in scenario's long demo on every load).
	const found: { path: (string | number)[]; message: string }[] = [];
	parsed.script.steps.forEach((step, index) => {
		if (!('call' in step)) return;
		if (step.expect !== undefined && !expectations.includes(step.expect)) {
			found.push({
				path: ['steps', index, 'expect'],
				message: `expect must be ok or a ToolError code (${toolErrorCodes.join(', ')}), got "${step.expect}"`
			});
		}
		// Calling an unknown tool on purpose is fine when the author expects it to be refused.
		if (!isKnownTool(step.call) && step.expect !== 'invalid_input') {
			found.push({
				path: ['steps', index, 'call'],
				message: `unknown tool "${step.call}"; the tools are ${Object.keys(toolInputSchemas).join(', ')}`
			});
		}
	});
	if (found.length === 0) return [];
	const read = readYamlWithPositions(text);
	if (!read.ok) return read.errors;
	const problems: YamlMessage[] = found.map(({ path, message }) => ({
		...read.yaml.valueAt(path),
		message
	}));
	return problems;
}
