import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { describe, expect, it } from 'vitest';
import { conversationSession } from '../../hooks/pipeline/conversation-session-kit.js';
import { ledgerToOtlp } from '../../hooks/telemetry/otlp-genai.js';

/**
 * `threadline otel`'s OTLP/JSON checked against OpenTelemetry's own encoder: every span we write
 * is rebuilt as an SDK ReadableSpan and serialised by @opentelemetry/otlp-transformer's
 * JsonTraceSerializer (what the official OTLP/HTTP JSON exporter sends). Each of our objects must
 * be a part of the official one, field for field: a misnamed field, a wrong kind or status code,
 * an attribute value of the wrong type, or ids in the wrong form fail here.
 */
type AnyValue = Record<string, unknown>;

function jsValue(value: AnyValue): unknown {
	const [kind, ...more] = Object.keys(value);
	if (more.length > 0) throw new Error(`an AnyValue with several kinds: ${Object.keys(value)}`);
	if (kind === 'stringValue') return value.stringValue;
	if (kind === 'boolValue') return value.boolValue;
	if (kind === 'intValue') {
		const number = Number(value.intValue);
		if (!Number.isSafeInteger(number)) throw new Error(`intValue ${String(value.intValue)}`);
		return number;
	}
	if (kind === 'arrayValue')
		return (value.arrayValue as { values: AnyValue[] }).values.map(jsValue);
	throw new Error(`unexpected AnyValue ${JSON.stringify(value)}`);
}

function attributesOf(list: { key: string; value: AnyValue }[]): Record<string, unknown> {
	return Object.fromEntries(list.map((entry) => [entry.key, jsValue(entry.value)]));
}

function hrTime(nanos: string): [number, number] {
	const value = BigInt(nanos);
	return [Number(value / 1_000_000_000n), Number(value % 1_000_000_000n)];
}

/** Our intValues are decimal strings (int64 in proto3 JSON); the SDK writes numbers. */
function withNumbers(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(withNumbers);
	if (typeof value !== 'object' || value === null) return value;
	return Object.fromEntries(
		Object.entries(value).map(([key, inner]) => [
			key,
			key === 'intValue' ? Number(inner) : withNumbers(inner)
		])
	);
}

describe('threadline otel against the official OTLP encoder', () => {
	it('writes what @opentelemetry/otlp-transformer writes for the same spans', async () => {
		const ours = ledgerToOtlp(await conversationSession(), {
			serviceVersion: '1.2.3',
			exportName: 'export.zip'
		});
		const resourceSpans = ours.resourceSpans[0]!;
		const scopeSpans = resourceSpans.scopeSpans[0]!;
		const resource = { attributes: attributesOf(resourceSpans.resource.attributes) };
		const readable = scopeSpans.spans.map((span) => {
			const context = { traceId: span.traceId, spanId: span.spanId, traceFlags: 1 };
			const start = hrTime(span.startTimeUnixNano);
			const end = hrTime(span.endTimeUnixNano);
			return {
				name: span.name,
				// OTLP's kind is the SDK's SpanKind + 1.
				kind: span.kind - 1,
				spanContext: () => context,
				...(span.parentSpanId
					? {
							parentSpanContext: {
								traceId: span.traceId,
								spanId: span.parentSpanId,
								traceFlags: 1
							}
						}
					: {}),
				startTime: start,
				endTime: end,
				status: span.status,
				attributes: attributesOf(span.attributes),
				links: [],
				events: span.events.map((event) => ({
					name: event.name,
					time: hrTime(event.timeUnixNano),
					attributes: attributesOf(event.attributes)
				})),
				duration: [end[0] - start[0], end[1] - start[1]],
				ended: true,
				resource,
				instrumentationScope: scopeSpans.scope,
				droppedAttributesCount: 0,
				droppedEventsCount: 0,
				droppedLinksCount: 0
			};
		});
		const official = JSON.parse(
			new TextDecoder().decode(JsonTraceSerializer.serializeRequest(readable as never))
		);
		expect(official).toMatchObject(withNumbers(ours) as object);
		// And the spans really are GenAI tool executions with guardrail events.
		const spans = official.resourceSpans[0].scopeSpans[0].spans;
		expect(spans.length).toBe(4);
		expect(
			spans.filter((span: { name: string }) => span.name.startsWith('execute_tool '))
		).toHaveLength(3);
	});
});
