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
	const read = readYamlWithPositions(text);
	if (!read.ok) return read.errors;
	const problems: YamlMessage[] = [];
	parsed.script.steps.forEach((step, index) => {
		if (!('call' in step)) return;
		if (step.expect !== undefined && !expectations.includes(step.expect)) {
			problems.push({
				...read.yaml.valueAt(['steps', index, 'expect']),
				message: `expect must be ok or a ToolError code (${toolErrorCodes.join(', ')}), got "${step.expect}"`
			});
		}
		// Calling an unknown tool on purpose is fine when the author expects it to be refused.
		if (!isKnownTool(step.call) && step.expect !== 'invalid_input') {
			problems.push({
				...read.yaml.valueAt(['steps', index, 'call']),
				message: `unknown tool "${step.call}"; the tools are ${Object.keys(toolInputSchemas).join(', ')}`
			});
		}
	});
	return problems;
}
