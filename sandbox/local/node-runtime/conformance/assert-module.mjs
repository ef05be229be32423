import assert from 'node:assert';
import strict from 'node:assert/strict';
const attempts = [
	() => assert.strictEqual(1, 2),
	() => assert.deepStrictEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }),
	() => assert.deepStrictEqual(new Map([[1, 'a']]), new Map([[1, 'b']])),
	() => assert.deepEqual({ a: 1 }, { a: '1' }),
	() => strict.equal(1, '1'),
	() =>
		assert.throws(() => {
			throw new TypeError('bad');
		}, TypeError),
	() =>
		assert.throws(() => {
			throw new Error('oops 42');
		}, /oops \d+/),
	() => assert.throws(() => {}, Error),
	() =>
		assert.throws(
			() => {
				throw new RangeError('r');
			},
			{ name: 'RangeError', message: 'r' }
		),
	() => assert.ok(0, 'zero is falsy'),
	() => assert.match('abc', /b/),
	() => assert.notStrictEqual(NaN, NaN),
	() => assert.deepStrictEqual([1, 2, 3], [1, 2, 3]),
	() => assert.deepStrictEqual(new Set([1, 2]), new Set([2, 1])),
	() => assert.deepStrictEqual({ a: 1 }, { a: 1, b: undefined }),
	() => assert.fail('explicit')
];
for (const attempt of attempts) {
	try {
		attempt();
		console.log('pass');
	} catch (error) {
		console.log('fail', error.name, error.code, error.operator ?? '-', error.generatedMessage);
	}
}
await assert.rejects(Promise.reject(new Error('no')), /no/);
await assert.rejects(async () => 1).catch((error) => console.log('rejects failed:', error.code));
console.log(assert.AssertionError === strict.AssertionError);
