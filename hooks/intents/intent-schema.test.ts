import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { intentsFileSchema, intentsJsonSchema } from './intent-schema.js';

const minimalIntent = {
	id: 'INT-001',
	name: 'JWT Authentication Migration',
	status: 'IN_PROGRESS'
};

describe('intentsFileSchema', () => {
	it('fills the defaults of optional fields', () => {
		const parsed = intentsFileSchema.parse({ active_intents: [minimalIntent] });
		expect(parsed.active_intents[0]).toEqual({
			...minimalIntent,
			owned_scope: [],
			constraints: [],
			acceptance_criteria: [],
			parallel: false
		});
	});

	it('keeps unknown fields at both levels', () => {
		const parsed = intentsFileSchema.parse({
			version: 2,
			active_intents: [{ ...minimalIntent, owner: 'ana', notes: { a: 1 } }]
		});
		expect(parsed.version).toBe(2);
		expect(parsed.active_intents[0]).toMatchObject({ owner: 'ana', notes: { a: 1 } });
	});

	it('accepts acceptance criteria as sentences or {description, run}', () => {
		const parsed = intentsFileSchema.parse({
			active_intents: [
				{
					...minimalIntent,
					acceptance_criteria: [
						'Unit tests pass',
						{ description: 'auth tests', run: 'npm test -- auth', timeout: 5 }
					]
				}
			]
		});
		expect(parsed.active_intents[0]?.acceptance_criteria).toEqual([
			'Unit tests pass',
			{ description: 'auth tests', run: 'npm test -- auth', timeout: 5 }
		]);
	});

	it.each([
		['an unknown status', { ...minimalIntent, status: 'DONE' }],
		['an empty id', { ...minimalIntent, id: '' }],
		['a blank id', { ...minimalIntent, id: '   ' }],
		['a numeric id', { ...minimalIntent, id: 7 }],
		['a missing name', { id: 'INT-001', status: 'DRAFT' }],
		['a non-boolean parallel', { ...minimalIntent, parallel: 'yes' }],
		['a criterion without run', { ...minimalIntent, acceptance_criteria: [{ description: 'x' }] }],
		['a scope that is not a list of strings', { ...minimalIntent, owned_scope: ['src/**', 3] }]
	])('rejects %s', (_label, intent) => {
		expect(intentsFileSchema.safeParse({ active_intents: [intent] }).success).toBe(false);
	});

	it('requires the active_intents list', () => {
		expect(intentsFileSchema.safeParse({}).success).toBe(false);
		expect(intentsFileSchema.safeParse({ active_intents: {} }).success).toBe(false);
	});
});

describe('intentsJsonSchema', () => {
	const validate = new Ajv({ strict: false }).compile(intentsJsonSchema());

	it('accepts what the zod schema accepts, defaults left out', () => {
		expect(validate({ active_intents: [minimalIntent] })).toBe(true);
		expect(
			validate({
				extra_top: true,
				active_intents: [
					{
						...minimalIntent,
						owned_scope: ['src/auth/**'],
						acceptance_criteria: ['x', { description: 'd', run: 'npm test' }],
						parallel: true,
						custom: 1
					}
				]
			})
		).toBe(true);
	});

	it('rejects a bad status, a missing id and a criterion without run', () => {
		expect(validate({ active_intents: [{ ...minimalIntent, status: 'DONE' }] })).toBe(false);
		expect(validate({ active_intents: [{ name: 'n', status: 'DRAFT' }] })).toBe(false);
		expect(
			validate({
				active_intents: [{ ...minimalIntent, acceptance_criteria: [{ description: 'd' }] }]
			})
		).toBe(false);
		expect(validate({})).toBe(false);
	});

	it('lists the statuses for editor completion', () => {
		const schema = intentsJsonSchema() as {
			properties: { active_intents: { items: { properties: { status: { enum: string[] } } } } };
		};
		expect(schema.properties.active_intents.items.properties.status.enum).toEqual([
			'DRAFT',
			'IN_PROGRESS',
			'BLOCKED',
			'COMPLETED'
		]);
	});
});
