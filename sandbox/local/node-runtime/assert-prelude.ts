/**
 * `node:assert` and `node:assert/strict` for the offline runtime, evaluated after
 * runtime-prelude.ts: ok/equal/strictEqual/deepEqual/deepStrictEqual and their negations,
 * throws/rejects/doesNotThrow/doesNotReject (class, RegExp, object and validation-function
 * expectations), match/doesNotMatch, ifError, fail, AssertionError. The test runner
 * (test-runner-prelude.ts) builds `t.assert` from `__threadlineAssert`. Plain ES2020 in a string.
 */
export const assertPrelude = String.raw`
(function () {
	'use strict';
	var inspectValue = globalThis.__threadlineInspect;
	var isExit = globalThis.__threadlineIsExit;

	// ---- assert ----
	function AssertionError(options) {
		options = options || {};
		var generated = options.message === undefined;
		var message = generated ? (options.operator ? inspectValue(options.actual) + ' ' + options.operator + ' ' + inspectValue(options.expected) : 'Failed') : String(options.message);
		var error = new Error(message);
		Object.setPrototypeOf(error, new.target ? new.target.prototype : AssertionError.prototype);
		error.generatedMessage = options.userMessage === undefined ? generated : !options.userMessage;
		error.code = 'ERR_ASSERTION';
		error.actual = options.actual;
		error.expected = options.expected;
		error.operator = options.operator;
		return error;
	}
	AssertionError.prototype = Object.create(Error.prototype);
	AssertionError.prototype.constructor = AssertionError;
	AssertionError.prototype.name = 'AssertionError';
	Object.defineProperty(AssertionError.prototype, 'name', { value: 'AssertionError', writable: true, configurable: true, enumerable: false });

	function fail(userMessage, generated, actual, expected, operator) {
		if (userMessage instanceof Error) throw userMessage;
		throw new AssertionError({ message: userMessage !== undefined ? String(userMessage) : generated, userMessage: userMessage !== undefined, actual: actual, expected: expected, operator: operator });
	}

	function isDeepEqual(a, b, strict, seen) {
		if (strict ? Object.is(a, b) : a == b || (a !== a && b !== b)) return true;
		if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
		if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
		if (Object.prototype.toString.call(a) !== Object.prototype.toString.call(b)) return false;
		if (a instanceof Date) return a.getTime() === b.getTime();
		if (a instanceof RegExp) return String(a) === String(b);
		if (a instanceof Error && (a.message !== b.message || a.name !== b.name)) return false;
		seen = seen || [];
		for (var s = 0; s < seen.length; s++) if (seen[s][0] === a && seen[s][1] === b) return true;
		seen = seen.concat([[a, b]]);
		if (ArrayBuffer.isView(a)) {
			if (a.length !== b.length) return false;
			for (var i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
			return true;
		}
		if (a instanceof Map) {
			if (a.size !== b.size) return false;
			var mapOk = true;
			a.forEach(function (value, key) { if (!b.has(key) || !isDeepEqual(value, b.get(key), strict, seen)) mapOk = false; });
			return mapOk;
		}
		if (a instanceof Set) {
			if (a.size !== b.size) return false;
			var setOk = true;
			a.forEach(function (value) {
				if (b.has(value)) return;
				if (typeof value !== 'object') { setOk = false; return; }
				var found = false;
				b.forEach(function (other) { if (!found && isDeepEqual(value, other, strict, seen)) found = true; });
				if (!found) setOk = false;
			});
			return setOk;
		}
		if (a instanceof Number || a instanceof String || a instanceof Boolean || (typeof BigInt === 'function' && a instanceof Object && Object.prototype.toString.call(a) === '[object BigInt]')) {
			if (!Object.is(a.valueOf(), b.valueOf())) return false;
		}
		var keysA = ownEnumerableKeys(a, strict);
		var keysB = ownEnumerableKeys(b, strict);
		if (keysA.length !== keysB.length) return false;
		for (var k = 0; k < keysA.length; k++) {
			var key = keysA[k];
			if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
			if (!isDeepEqual(a[key], b[key], strict, seen)) return false;
		}
		return true;
	}
	function ownEnumerableKeys(value, withSymbols) {
		var keys = Object.keys(value);
		if (!withSymbols) return keys;
		return keys.concat(Object.getOwnPropertySymbols(value).filter(function (symbol) { return Object.prototype.propertyIsEnumerable.call(value, symbol); }));
	}
	globalThis.__threadlineDeepEqual = function (a, b, strict) { return isDeepEqual(a, b, strict); };

	function diffText(actual, expected) {
		var left = inspectValue(actual).split('\n');
		var right = inspectValue(expected).split('\n');
		if (left.length === 1 && right.length === 1) return '\n' + left[0] + ' !== ' + right[0] + '\n';
		var out = ['+ actual - expected', ''];
		var length = Math.max(left.length, right.length);
		for (var i = 0; i < length; i++) {
			if (left[i] === right[i]) out.push('  ' + left[i]);
			else {
				if (left[i] !== undefined) out.push('+ ' + left[i]);
				if (right[i] !== undefined) out.push('- ' + right[i]);
			}
		}
		return out.join('\n');
	}

	function matchesExpected(error, expected, message) {
		if (expected === undefined) return;
		if (typeof expected === 'function') {
			if (expected.prototype !== undefined && error instanceof expected) return;
			if (Error.isPrototypeOf(expected) || expected === Error) fail(message, 'The error is expected to be an instance of "' + expected.name + '". Received "' + (error && error.constructor && error.constructor.name) + '"\n\nError message:\n\n' + (error && error.message), error, expected, 'throws');
			if (expected.call({}, error) === true) return;
			fail(message, 'The "validate" function is expected to return "true". Received false', error, expected, 'throws');
		}
		if (expected instanceof RegExp) {
			if (expected.test(String(error))) return;
			fail(message, 'The input did not match the regular expression ' + String(expected) + '. Input:\n\n' + inspectValue(String(error)) + '\n', error, expected, 'throws');
		}
		if (typeof expected === 'object' && expected !== null) {
			Object.keys(expected).forEach(function (key) {
				var want = expected[key];
				var have = error === null || error === undefined ? undefined : error[key];
				var ok = want instanceof RegExp && typeof have === 'string' ? want.test(have) : isDeepEqual(have, want, true);
				if (!ok) fail(message, 'Expected values to be strictly deep-equal:\n' + diffText(have, want), error, expected, 'throws');
			});
		}
	}

	function makeAssert(strictMode) {
		function assert(value, message) { if (!value) fail(message, arguments.length === 0 ? 'No value argument passed to ' + "'assert.ok()'" : 'The expression evaluated to a falsy value:\n\n  assert(' + inspectValue(value) + ')\n', value, true, '=='); }
		assert.ok = function (value, message) { if (!value) fail(message, arguments.length === 0 ? 'No value argument passed to ' + "'assert.ok()'" : 'The expression evaluated to a falsy value:\n\n  assert.ok(' + inspectValue(value) + ')\n', value, true, '=='); };
		assert.strictEqual = function (actual, expected, message) { if (!Object.is(actual, expected)) fail(message, 'Expected values to be strictly equal:\n' + diffText(actual, expected), actual, expected, 'strictEqual'); };
		assert.notStrictEqual = function (actual, expected, message) { if (Object.is(actual, expected)) fail(message, 'Expected "actual" to be strictly unequal to: ' + inspectValue(expected), actual, expected, 'notStrictEqual'); };
		assert.deepStrictEqual = function (actual, expected, message) { if (!isDeepEqual(actual, expected, true)) fail(message, 'Expected values to be strictly deep-equal:\n' + diffText(actual, expected), actual, expected, 'deepStrictEqual'); };
		assert.notDeepStrictEqual = function (actual, expected, message) { if (isDeepEqual(actual, expected, true)) fail(message, 'Expected "actual" not to be strictly deep-equal to: ' + inspectValue(expected), actual, expected, 'notDeepStrictEqual'); };
		assert.equal = strictMode ? assert.strictEqual : function (actual, expected, message) { if (!(actual == expected || (actual !== actual && expected !== expected))) fail(message, inspectValue(actual) + ' == ' + inspectValue(expected), actual, expected, '=='); };
		assert.notEqual = strictMode ? assert.notStrictEqual : function (actual, expected, message) { if (actual == expected) fail(message, inspectValue(actual) + ' != ' + inspectValue(expected), actual, expected, '!='); };
		assert.deepEqual = strictMode ? assert.deepStrictEqual : function (actual, expected, message) { if (!isDeepEqual(actual, expected, false)) fail(message, 'Expected values to be loosely deep-equal:\n\n' + inspectValue(actual) + '\n\nshould loosely deep-equal\n\n' + inspectValue(expected), actual, expected, 'deepEqual'); };
		assert.notDeepEqual = strictMode ? assert.notDeepStrictEqual : function (actual, expected, message) { if (isDeepEqual(actual, expected, false)) fail(message, '"actual" deepEqual "expected"', actual, expected, 'notDeepEqual'); };
		assert.throws = function (fn, expected, message) {
			if (typeof expected === 'string') { message = expected; expected = undefined; }
			var threw = false, error;
			try { fn(); } catch (caught) { if (isExit(caught)) throw caught; threw = true; error = caught; }
			if (!threw) {
				var missing = new AssertionError({ message: message !== undefined ? String(message) : 'Missing expected exception' + (expected && expected.name ? ' (' + expected.name + ').' : '.'), userMessage: true, actual: undefined, expected: expected, operator: 'throws' });
				throw missing;
			}
			matchesExpected(error, expected, message);
		};
		assert.doesNotThrow = function (fn, message) {
			try { fn(); } catch (error) { if (isExit(error)) throw error; fail(typeof message === 'string' ? message : undefined, 'Got unwanted exception.\nActual message: "' + (error && error.message) + '"', error, undefined, 'doesNotThrow'); }
		};
		assert.rejects = function (promiseOrFn, expected, message) {
			if (typeof expected === 'string') { message = expected; expected = undefined; }
			return Promise.resolve().then(function () { return typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn; }).then(
				function () { fail(message, 'Missing expected rejection' + (expected && expected.name ? ' (' + expected.name + ').' : '.'), undefined, expected, 'rejects'); },
				function (error) { matchesExpected(error, expected, message); }
			);
		};
		assert.doesNotReject = function (promiseOrFn, message) {
			return Promise.resolve().then(function () { return typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn; }).then(
				function () {},
				function (error) { fail(typeof message === 'string' ? message : undefined, 'Got unwanted rejection.\nActual message: "' + (error && error.message) + '"', error, undefined, 'doesNotReject'); }
			);
		};
		assert.match = function (text, pattern, message) { if (!pattern.test(text)) fail(message, 'The input did not match the regular expression ' + String(pattern) + '. Input:\n\n' + inspectValue(text) + '\n', text, pattern, 'match'); };
		assert.doesNotMatch = function (text, pattern, message) { if (pattern.test(text)) fail(message, 'The input was expected to not match the regular expression ' + String(pattern) + '. Input:\n\n' + inspectValue(text) + '\n', text, pattern, 'doesNotMatch'); };
		assert.ifError = function (value) { if (value !== null && value !== undefined) { if (value instanceof Error) throw value; fail(undefined, 'ifError got unwanted exception: ' + inspectValue(value), value, null, 'ifError'); } };
		assert.fail = function (message) { fail(message === undefined ? 'Failed' : message, 'Failed', undefined, undefined, 'fail'); };
		assert.AssertionError = AssertionError;
		return assert;
	}
	var strictAssert = makeAssert(true);
	var assert = makeAssert(false);
	assert.strict = strictAssert;
	strictAssert.strict = strictAssert;
	globalThis.__threadlineDefineBuiltin('assert', function () { return assert; });
	globalThis.__threadlineAssert = assert;
	globalThis.__threadlineDefineBuiltin('assert/strict', function () { return strictAssert; });

})();
`;
