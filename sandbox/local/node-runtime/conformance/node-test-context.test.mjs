// node:test's context and mock API (issue 30): t.assert, t.plan, t.mock, t.before,
// hooks, skip/todo and a test that never settles (mock timers: node-runtime.test.ts, as real
// Node prints an ExperimentalWarning with its pid for them).
import { describe, it, test, before, afterEach, mock } from 'node:test';

let hooks = [];
before(() => hooks.push('before'));
afterEach(() => hooks.push('afterEach'));

test('t.assert and t.plan', (t) => {
	t.plan(3);
	t.assert.ok(true);
	t.assert.strictEqual(1 + 1, 2);
	t.assert.deepStrictEqual({ a: [1] }, { a: [1] });
});

test('t.mock.fn and mock.method', (t) => {
	const double = t.mock.fn((value) => value * 2);
	t.assert.strictEqual(double(4), 8);
	t.assert.strictEqual(double.mock.callCount(), 1);
	t.assert.deepStrictEqual(double.mock.calls[0].arguments, [4]);
	const object = { greet: () => 'hi' };
	t.mock.method(object, 'greet', () => 'mocked');
	t.assert.strictEqual(object.greet(), 'mocked');
	const tracked = mock.fn();
	tracked(1, 2);
	t.assert.strictEqual(tracked.mock.calls.length, 1);
});

test('t.before runs before the subtests', async (t) => {
	let ready = false;
	t.before(() => {
		ready = true;
	});
	await t.test('sees the before hook', () => {
		t.assert.ok(ready);
	});
});

describe('a suite', () => {
	it('passes', () => {});
	it.skip('is skipped', () => {});
	it.todo('is to do');
	it('sees the file hooks', () => {
		if (!hooks.includes('before')) throw new Error('before did not run');
	});
});

test('done callback after a timer', (t, done) => {
	setTimeout(() => done(), 5);
});

test('never settles', () => new Promise(() => {}));
