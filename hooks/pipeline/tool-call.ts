/** One tool call as the model made it, before validation. */
export interface ToolCall {
	sessionId: string;
	toolCallId: string;
	tool: string;
	input: unknown;
}
