import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, memberText, writeCanonical } from './canonical-json.js';

describe('canonicalJson', () => {
	it('sorts keys at every depth and writes no whitespace', () => {
		expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe(
			'{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}'
		);
	});

	it('sorts by UTF-16 code units, not by locale or numeric value', () => {
		// 'B' (0x42) < 'a' (0x61); '10' < '9' as strings; U+FF21 (one unit) sorts after U+1F600's
		// high surrogate 0xD83D.
		expect(canonicalJson({ a: 1, B: 2, '9': 3, '10': 4, Ａ: 5, '😀': 6 })).toBe(
			'{"10":4,"9":3,"B":2,"a":1,"😀":6,"Ａ":5}'
		);
	});

	it('drops undefined members and writes undefined array elements as null', () => {
		expect(canonicalJson({ a: undefined, b: null, c: [undefined, 1] })).toBe(
			'{"b":null,"c":[null,1]}'
		);
	});

	it('escapes strings exactly as JSON.stringify does', () => {
		const text = 'line\nquote" back\\ tab\t \u0001 é 😀';
		expect(canonicalJson(text)).toBe(JSON.stringify(text));
		expect(canonicalJson({ [text]: 1 })).toBe(`{${JSON.stringify(text)}:1}`);
	});

	it('writes numbers as JSON.stringify does', () => {
		expect(canonicalJson([0, -0, 1.5, 1e21, -3e-7])).toBe('[0,0,1.5,1e+21,-3e-7]');
	});

	it('rejects NaN and Infinity, naming where they are', () => {
		expect(() => canonicalJson({ a: [1, Number.NaN] })).toThrow(/NaN at \(root\)\.a\[1\]/);
		expect(() => canonicalJson(Number.POSITIVE_INFINITY)).toThrow(/Infinity/);
		expect(() => canonicalJson({ x: Number.NEGATIVE_INFINITY })).toThrow(/-Infinity/);
	});

	it('rejects values with no JSON form', () => {
		expect(() => canonicalJson(undefined)).toThrow(/undefined/);
		expect(() => canonicalJson({ f: () => 1 })).toThrow(/function/);
		expect(() => canonicalJson({ n: 1n })).toThrow(/bigint/);
		expect(() => canonicalJson({ m: new Map() })).toThrow(/Map at \(root\)\.m is not plain/);
		expect(() => canonicalJson(new Uint8Array(2))).toThrow(/Uint8Array/);
	});

	it('uses toJSON like JSON.stringify (dates)', () => {
		const date = new Date('2026-01-02T03:04:05.000Z');
		expect(canonicalJson({ at: date })).toBe('{"at":"2026-01-02T03:04:05.000Z"}');
	});

	it('rejects circular structures but accepts shared ones', () => {
		const shared = { x: 1 };
		expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
		const loop: Record<string, unknown> = {};
		loop.self = loop;
		expect(() => canonicalJson(loop)).toThrow(/circular/);
	});

	it('accepts objects without a prototype', () => {
		const bare = Object.create(null) as Record<string, unknown>;
		bare.b = 2;
		bare.a = 1;
		expect(canonicalJson(bare)).toBe('{"a":1,"b":2}');
	});

	it('is stable under a JSON round trip and under key order (property)', () => {
		fc.assert(
			fc.property(fc.jsonValue(), (value) => {
				const text = canonicalJson(value);
				expect(canonicalJson(JSON.parse(text))).toBe(text);
				expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
			}),
			{ numRuns: 300 }
		);
	});
});

describe('canonicalJson: the JSON.stringify fast path', () => {
	it('writes exactly what the member-by-member writer writes, for any JSON-like value', () => {
		const keyed = fc.oneof(
			fc.string(),
			fc.constantFrom('1', '10', '9', 'hash', '__proto__', 'toJSON')
		);
		const value = fc.letrec((tie) => ({
			node: fc.oneof(
				{ depthSize: 'small' },
				fc.jsonValue(),
				fc.constantFrom(undefined, Number.NaN, -0, new Date(0)),
				fc.array(tie('node'), { maxLength: 4 }),
				fc.dictionary(keyed, tie('node'), { maxKeys: 5 })
			)
		})).node;
		fc.assert(
			fc.property(value, (candidate) => {
				let expected: string | Error;
				try {
					expected = writeCanonical(candidate);
				} catch (error) {
					expected = error as Error;
				}
				if (expected instanceof Error) expect(() => canonicalJson(candidate)).toThrow();
				else expect(canonicalJson(candidate)).toBe(expected);
				// The same value with its keys sorted (the shape the ledger stores) takes the fast path.
				const sorted = sortKeys(candidate);
				if (!(expected instanceof Error)) expect(canonicalJson(sorted)).toBe(expected);
			}),
			{ numRuns: 3_000 }
		);
	});

	it('refuses sparse arrays, Maps and class instances the same way', () => {
		// eslint-disable-next-line no-sparse-arrays -- the hole is the point
		expect(canonicalJson([1, , 3])).toBe('[1,null,3]');
		expect(() => canonicalJson({ a: new Map() })).toThrow(/not plain JSON data/);
		expect(canonicalJson({ a: 1, b: undefined })).toBe('{"a":1}');
	});
});

function sortKeys(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(sortKeys);
	if (
		typeof value !== 'object' ||
		value === null ||
		Object.getPrototypeOf(value) !== Object.prototype
	)
		return value;
	const sorted: Record<string, unknown> = {};
	for (const key of Object.keys(value).sort()) {
		Object.defineProperty(sorted, key, {
			value: sortKeys((value as Record<string, unknown>)[key]),
			enumerable: true,
			writable: true,
			configurable: true
		});
	}
	return sorted;
}

describe('memberText', () => {
	it('cuts out exactly the canonical text of a top-level member, or gives up', () => {
		const primitive = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
		fc.assert(
			fc.property(
				fc.dictionary(fc.string(), fc.oneof(primitive, fc.jsonValue()), { minKeys: 1 }),
				fc.nat(),
				(record, pick) => {
					const text = canonicalJson(record);
					const value = JSON.parse(text) as Record<string, unknown>;
					// Integer-like keys enumerate first, so such a parse is not proven canonical, and a
					// caller proves the line canonical before asking.
					if (JSON.stringify(value) !== text) return;
					const names = Object.keys(value);
					const name = names[pick % names.length] as string;
					const cut = memberText(text, value, name);
					const othersPrimitive = names.every(
						(key) => key === name || value[key] === null || typeof value[key] !== 'object'
					);
					if (othersPrimitive) expect(cut).toBe(canonicalJson(value[name]));
					else expect(cut === null || cut === canonicalJson(value[name])).toBe(true);
				}
			),
			{ numRuns: 2_000 }
		);
	});

	it("is not fooled by the member's key inside a string or a nested object", () => {
		const tricky = { a: ',"trace":', trace: { x: '",trace":' }, type: 'm' };
		expect(memberText(canonicalJson(tricky), tricky, 'trace')).toBe(canonicalJson(tricky.trace));
		const nested = { a: { trace: 1 }, trace: 2 };
		expect(memberText(canonicalJson(nested), nested, 'trace')).toBeNull();
		expect(memberText('{"a":1}', { a: 1 }, 'trace')).toBeNull();
		expect(memberText('{"trace":[1],"z":true}', { trace: [1], z: true }, 'trace')).toBe('[1]');
	});
});
