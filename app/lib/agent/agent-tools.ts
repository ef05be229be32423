import {
	jsonSchema,
	tool,
	zodSchema,
	type InferUITools,
	type Tool,
	type UIDataTypes,
	type UIMessage
} from 'ai';
import { z } from 'zod';
import {
	toolDescriptions,
	toolInputSchemas,
	type ToolInput,
	type ToolName
} from '../../../hooks/tools/tool-catalog.js';

/**
 * What a tool hands back to the model: the executor's output, or a ToolError
 * (`{status:'error',code,message,suggestion}`) when the pipeline blocked or the tool failed.
 * Any JSON value fits; the pipeline, not this schema, decides what the output is.
 */
export const toolOutputSchema = z
	.json()
	.describe(
		'The tool output, or a ToolError {"status":"error","code":…,"message":…,"suggestion":…}.'
	);

export type ToolOutput = z.infer<typeof toolOutputSchema>;

export type AgentTools = { [Name in ToolName]: Tool<ToolInput<Name>, ToolOutput> };

/**
 * The agent's tools for the AI SDK, derived from the hooks/ catalog so the model sees exactly
 * the schemas the pipeline validates with. No `execute`: the tools run in the page, through the
 * hook pipeline, and come back with `addToolOutput`.
 */
function buildAgentTools(): AgentTools {
	const names = Object.keys(toolInputSchemas) as ToolName[];
	return Object.fromEntries(names.map((name) => [name, catalogTool(name)])) as AgentTools;
}

function catalogTool<Name extends ToolName>(name: Name): Tool<ToolInput<Name>, ToolOutput> {
	// Indexing the catalog with a generic name widens to the union of all schemas; narrow it back.
	const catalogSchema = toolInputSchemas[name] as unknown as z.ZodType<ToolInput<Name>>;
	const described = zodSchema(catalogSchema);
	// The model sees the catalog's JSON Schema, but the SDK lets every parsed input through: the
	// pipeline validates it (validateToolCall), records the call and answers an invalid one with
	// an invalid_input ToolError in plain words. Validating here as well would answer the model
	// with zod's raw JSON, outside the pipeline and the ledger.
	const inputSchema = jsonSchema<ToolInput<Name>>(() => described.jsonSchema, {
		validate: (value) => ({ success: true, value: value as ToolInput<Name> })
	});
	return tool({ description: toolDescriptions[name], inputSchema, outputSchema: toolOutputSchema });
}

export const agentTools: AgentTools = buildAgentTools();

/** Sent with the first chunk of every assistant message, so the trace can name the model. */
export interface AgentMessageMetadata {
	/** `provider/model`, e.g. `openai/gpt-5.4-mini` or `demo/scripted`. */
	modelId?: string;
	/** The turn's token usage, when the provider reports it (recorded with the conversation). */
	usage?: { inputTokens?: number; outputTokens?: number; totalTokens?: number };
}

/** A chat message of the agent, with typed tool parts (`tool-write_to_file`, …). */
export type AgentUIMessage = UIMessage<AgentMessageMetadata, UIDataTypes, InferUITools<AgentTools>>;
