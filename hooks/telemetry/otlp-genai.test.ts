import { describe, expect, it } from 'vitest';
import { conversationSession } from '../pipeline/conversation-session-kit.js';
import { ledgerToOtlp } from './otlp-genai.js';

type Attribute = { key: string; value: Record<string, unknown> };
const attribute = (attributes: Attribute[], key: string) =>
	attributes.find((entry) => entry.key === key)?.value;

describe('OTLP/JSON (GenAI semantic conventions)', () => {
	it('gives a span per tool call under the session, decisions as guardrail events', async () => {
		const otlp = ledgerToOtlp(await conversationSession(), { serviceVersion: '1.0.0' });
		const spans = otlp.resourceSpans[0]?.scopeSpans[0]?.spans ?? [];
		const root = spans.find((span) => span.parentSpanId === undefined);
		expect(attribute(root?.attributes ?? [], 'gen_ai.operation.name')).toEqual({
			stringValue: 'invoke_agent'
		});
		expect(attribute(root?.attributes ?? [], 'gen_ai.usage.input_tokens')).toEqual({
			intValue: '120'
		});
		const tools = spans.filter(
			(span) => attribute(span.attributes, 'gen_ai.operation.name')?.stringValue === 'execute_tool'
		);
		expect(tools.map((span) => attribute(span.attributes, 'gen_ai.tool.call.id'))).toEqual([
			{ stringValue: 'call-1' },
			{ stringValue: 'call-2' },
			{ stringValue: 'call-3' }
		]);
		for (const span of tools) {
			expect(span.parentSpanId).toBe(root?.spanId);
			expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
			expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
			expect(BigInt(span.endTimeUnixNano) >= BigInt(span.startTimeUnixNano)).toBe(true);
		}
		const denied = tools[2];
		expect(denied?.status).toEqual({ code: 2, message: 'scope_violation' });
		const guardrail = denied?.events.find((event) => event.name === 'gen_ai.guardrail');
		expect(attribute(guardrail?.attributes ?? [], 'gen_ai.guardrail.decision.type')).toEqual({
			stringValue: 'deny'
		});
		expect(attribute(guardrail?.attributes ?? [], 'gen_ai.guardrail.decision.code')).toEqual({
			stringValue: 'scope_violation'
		});
		// No content leaves by default: no message text anywhere in the telemetry.
		expect(JSON.stringify(otlp)).not.toContain('expire after an hour');
	});
});
