import type { LedgerEvent } from '../ledger/ledger-event.js';

/**
 * A ledger as OpenTelemetry traces in OTLP/JSON (`ExportTraceServiceRequest`: `resourceSpans`),
 * following the GenAI semantic conventions, so a department can load Threadline sessions beside
 * other agents' telemetry:
 * - one `invoke_agent` span per session (`gen_ai.conversation.id` = the session id), from its
 *   first to its last event;
 * - one `execute_tool` span per tool call under it (`gen_ai.tool.name`, `gen_ai.tool.call.id`,
 *   `gen_ai.tool.type` = `function`), status ERROR with `error.type` = the ToolError code when the
 *   call was refused or failed;
 * - each hook decision and approval as a `gen_ai.guardrail` event on the call's span
 *   (`gen_ai.guardrail.decision.type` allow | deny | ask, the hooks as `gen_ai.guardrail.name`,
 *   the code and message as `…decision.code` / `…decision.reason`, the hook policy's sha256 as
 *   `gen_ai.guardrail.policy.id`; the convention's registry has no guardrail attributes yet, these
 *   follow the names OpenTelemetry distributions use for guardrail evaluations);
 * - token usage of the model's turns, when the provider reported it, on the session span
 *   (`gen_ai.usage.input_tokens`, `gen_ai.usage.output_tokens`).
 * No message content is exported (the conventions make content opt-in; the transcript has it).
 * Trace and span ids are derived from the ledger's own hashes: the same export gives the same ids.
 */
export interface OtlpExportOptions {
	serviceVersion: string;
	/** Names the export (the file or folder), `threadline.export` on the resource. */
	exportName?: string;
}

type AttributeValue =
	| { stringValue: string }
	| { intValue: string }
	| { boolValue: boolean }
	| {
			arrayValue: { values: { stringValue: string }[] };
	  };
interface Attribute {
	key: string;
	value: AttributeValue;
}
interface SpanEvent {
	timeUnixNano: string;
	name: string;
	attributes: Attribute[];
}
interface Span {
	traceId: string;
	spanId: string;
	parentSpanId?: string;
	name: string;
	kind: number;
	startTimeUnixNano: string;
	endTimeUnixNano: string;
	attributes: Attribute[];
	events: SpanEvent[];
	status: { code: number; message?: string };
}

/** SpanKind INTERNAL and CLIENT; StatusCode UNSET, OK and ERROR (opentelemetry-proto trace.proto). */
const spanKindInternal = 1;
const statusOk = 1;
const statusError = 2;

export function ledgerToOtlp(events: readonly LedgerEvent[], options: OtlpExportOptions) {
	const genesis = events[0]?.hash ?? 'sha256:' + '0'.repeat(64);
	const traceId = hexOf(genesis).slice(0, 32);
	const sessions = new Map<
		string,
		{ span: Span; model: string | null; input: number; output: number; usage: boolean }
	>();
	const calls = new Map<string, Span>();
	let policyHash: string | null = null;
	const spans: Span[] = [];

	const sessionSpan = (event: LedgerEvent) => {
		let entry = sessions.get(event.session_id);
		if (!entry) {
			const span: Span = {
				traceId,
				spanId: hexOf(event.hash).slice(0, 16),
				name: `invoke_agent ${event.session_id}`,
				kind: spanKindInternal,
				startTimeUnixNano: nanosOf(event.timestamp),
				endTimeUnixNano: nanosOf(event.timestamp),
				attributes: [
					text('gen_ai.operation.name', 'invoke_agent'),
					text('gen_ai.agent.name', event.session_id),
					text('gen_ai.conversation.id', event.session_id)
				],
				events: [],
				status: { code: statusOk }
			};
			entry = { span, model: null, input: 0, output: 0, usage: false };
			sessions.set(event.session_id, entry);
			spans.push(span);
		}
		entry.span.endTimeUnixNano = nanosOf(event.timestamp);
		return entry;
	};

	for (const event of events) {
		if (event.type === 'hook-policy-load') policyHash = event.policy_hash;
		if (event.type === 'workspace-snapshot' || event.type === 'witness-receipt') continue;
		const session = sessionSpan(event);
		switch (event.type) {
			case 'conversation-entry':
				if (event.model && !session.model) {
					session.model = event.model;
					const slash = event.model.indexOf('/');
					session.span.attributes.push(
						text('gen_ai.provider.name', slash > 0 ? event.model.slice(0, slash) : event.model),
						text('gen_ai.request.model', slash > 0 ? event.model.slice(slash + 1) : event.model)
					);
				}
				if (event.usage) {
					session.usage = true;
					session.input += event.usage.input_tokens ?? 0;
					session.output += event.usage.output_tokens ?? 0;
				}
				break;
			case 'tool-call-start': {
				const span: Span = {
					traceId,
					spanId: hexOf(event.hash).slice(0, 16),
					parentSpanId: session.span.spanId,
					name: `execute_tool ${event.tool}`,
					kind: spanKindInternal,
					startTimeUnixNano: nanosOf(event.timestamp),
					endTimeUnixNano: nanosOf(event.timestamp),
					attributes: [
						text('gen_ai.operation.name', 'execute_tool'),
						text('gen_ai.tool.name', event.tool),
						text('gen_ai.tool.call.id', event.tool_call_id),
						text('gen_ai.tool.type', 'function'),
						text('gen_ai.conversation.id', event.session_id),
						integer('threadline.seq', event.seq)
					],
					events: [],
					status: { code: statusOk }
				};
				calls.set(callKey(event.session_id, event.tool_call_id), span);
				spans.push(span);
				break;
			}
			case 'tool-decision': {
				const span = calls.get(callKey(event.session_id, event.tool_call_id));
				span?.events.push({
					timeUnixNano: nanosOf(event.timestamp),
					name: 'gen_ai.guardrail',
					attributes: [
						text('gen_ai.guardrail.target.type', 'tool_call'),
						text('gen_ai.guardrail.target.id', event.tool_call_id),
						text('gen_ai.guardrail.decision.type', event.decision),
						list('gen_ai.guardrail.name', event.hooks),
						...(event.code ? [text('gen_ai.guardrail.decision.code', event.code)] : []),
						...(event.message ? [text('gen_ai.guardrail.decision.reason', event.message)] : []),
						...(policyHash ? [text('gen_ai.guardrail.policy.id', policyHash)] : []),
						integer('threadline.seq', event.seq)
					]
				});
				break;
			}
			case 'approval-response': {
				const span = calls.get(callKey(event.session_id, event.tool_call_id));
				span?.events.push({
					timeUnixNano: nanosOf(event.timestamp),
					name: 'gen_ai.guardrail',
					attributes: [
						text('gen_ai.guardrail.target.type', 'tool_call'),
						text('gen_ai.guardrail.target.id', event.tool_call_id),
						text('gen_ai.guardrail.decision.type', event.approved ? 'allow' : 'deny'),
						list('gen_ai.guardrail.name', [`approval:${event.by}`]),
						...(event.reason ? [text('gen_ai.guardrail.decision.reason', event.reason)] : []),
						integer('threadline.seq', event.seq)
					]
				});
				break;
			}
			case 'tool-call-finish': {
				const span = calls.get(callKey(event.session_id, event.tool_call_id));
				if (!span) break;
				span.endTimeUnixNano = nanosOf(event.timestamp);
				if (!event.ok) {
					span.status = { code: statusError, ...(event.code ? { message: event.code } : {}) };
					span.attributes.push(text('error.type', event.code ?? '_OTHER'));
				}
				calls.delete(callKey(event.session_id, event.tool_call_id));
				break;
			}
			default:
				break;
		}
	}
	for (const session of sessions.values()) {
		if (!session.usage) continue;
		session.span.attributes.push(
			integer('gen_ai.usage.input_tokens', session.input),
			integer('gen_ai.usage.output_tokens', session.output)
		);
	}
	return {
		resourceSpans: [
			{
				resource: {
					attributes: [
						text('service.name', 'threadline'),
						text('service.version', options.serviceVersion),
						...(options.exportName ? [text('threadline.export', options.exportName)] : [])
					]
				},
				scopeSpans: [
					{
						scope: { name: 'threadline', version: options.serviceVersion },
						spans
					}
				]
			}
		]
	};
}

function callKey(session: string, toolCallId: string): string {
	return `${session}\u0000${toolCallId}`;
}

function hexOf(hash: string): string {
	return hash.startsWith('sha256:') ? hash.slice(7) : hash;
}

/** Nanoseconds since the epoch as a decimal string (OTLP/JSON's int64 form). */
function nanosOf(timestamp: string): string {
	const millis = Date.parse(timestamp);
	if (Number.isNaN(millis)) return '0';
	return (BigInt(millis) * 1_000_000n).toString();
}

function text(key: string, value: string): Attribute {
	return { key, value: { stringValue: value } };
}

function integer(key: string, value: number): Attribute {
	return { key, value: { intValue: String(value) } };
}

function list(key: string, values: readonly string[]): Attribute {
	return {
		key,
		value: { arrayValue: { values: values.map((value) => ({ stringValue: value })) } }
	};
}
