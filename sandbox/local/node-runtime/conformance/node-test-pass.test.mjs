import { after, before, beforeEach, describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
const log = [];
describe('a suite', () => {
	before(() => log.push('before'));
	beforeEach(() => log.push('each'));
	after(() => console.log(log.join(',')));
	it('adds', () => assert.equal(1 + 1, 2));
	it('waits', async () => {
		await new Promise((resolve) => setTimeout(resolve, 10));
		assert.ok(true);
	});
	it.skip('is skipped', () => assert.fail('no'));
	it('has a todo', { todo: 'later' }, () => {});
});
test('with subtests', async (t) => {
	await t.test('first', () => {});
	await t.test('second', () => assert.deepEqual([1], [1]));
});
test('skip inside', (t) => {
	t.skip('not today');
});
test('callback style', (t, done) => {
	setTimeout(done, 1);
});
