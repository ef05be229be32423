import { asSchema, zodSchema, type FlexibleSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import { toolError } from '../../../hooks/errors/tool-error.js';
import { toolDescriptions, toolInputSchemas } from '../../../hooks/tools/tool-catalog.js';
import { agentTools, toolOutputSchema } from './agent-tools.js';

describe('agentTools', () => {
	it('has exactly the catalog’s tools', () => {
		expect(Object.keys(agentTools).sort()).toEqual(Object.keys(toolInputSchemas).sort());
	});

	it('describes the catalog’s schemas to the model, with the catalog’s descriptions', async () => {
		for (const [name, definition] of Object.entries(agentTools)) {
			const catalogName = name as keyof typeof toolInputSchemas;
			const catalogSchema = toolInputSchemas[catalogName] as unknown as Parameters<
				typeof zodSchema
			>[0];
			expect(await asSchema(definition.inputSchema as FlexibleSchema).jsonSchema).toEqual(
				await zodSchema(catalogSchema).jsonSchema
			);
			expect(definition.description).toBe(toolDescriptions[catalogName]);
		}
	});

	it('lets every input through to the pipeline, which validates and records it', async () => {
		const schema = asSchema(agentTools.write_to_file.inputSchema);
		const result = await schema.validate?.({ path: 3 });
		expect(result).toEqual({ success: true, value: { path: 3 } });
	});

	it('has no execute (the page runs tools through the pipeline) but an output schema', () => {
		for (const definition of Object.values(agentTools)) {
			expect(definition.execute).toBeUndefined();
			expect(definition.outputSchema).toBe(toolOutputSchema);
		}
	});

	it('describes strict inputs to the model (no extra properties)', async () => {
		const schema = await asSchema(agentTools.write_to_file.inputSchema).jsonSchema;
		expect(schema).toMatchObject({
			type: 'object',
			additionalProperties: false,
			required: expect.arrayContaining(['path', 'content', 'intent_id', 'mutation_class'])
		});
	});
});

describe('toolOutputSchema', () => {
	it('accepts any tool output and a ToolError', () => {
		const samples = [
			'<intent_context>…</intent_context>',
			{ path: 'src/a.ts', content: 'x', lines: 1 },
			[{ path: 'a' }, { path: 'b' }],
			42,
			null,
			toolError('scope_violation', 'Scope Violation: INT-001 …', 'Request scope expansion.')
		];
		for (const sample of samples) expect(toolOutputSchema.safeParse(sample).success).toBe(true);
	});

	it('refuses values that are not JSON', () => {
		expect(toolOutputSchema.safeParse(undefined).success).toBe(false);
		expect(toolOutputSchema.safeParse(() => 1).success).toBe(false);
		expect(toolOutputSchema.safeParse({ when: new Date() }).success).toBe(false);
	});
});
