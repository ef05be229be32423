/**
 * `node:assert` (and `assert/strict`) and `node:test` for the offline runtime, evaluated after
 * runtime-prelude.ts. The test runner prints Node 20's TAP (`# Subtest:`, `ok N - name`, YAML
 * diagnostics for failures, the `# tests/pass/fail…` summary) and sets exit code 1 when a test
 * fails. Supported: test/it/describe/suite (with `.skip`, `.todo`, `.only` as a plain test),
 * options `{ skip, todo, timeout }`, `t.test`, `t.skip()`, `t.todo()`, `t.diagnostic`, `t.name`,
 * `t.signal`-less `done` callbacks, and before/after/beforeEach/afterEach (suite level and top
 * level). Not supported: mocks, snapshots, `--test-only` filtering, concurrency.
 *
 * `__threadlineTestOptions` (set by the host before the program): `{ numberOffset, quietSummary }`
 * for `node --test`, which runs each file in its own runtime and adds up their counts.
 */
export const nodeTestPrelude = String.raw`
(function () {
	'use strict';
	var inspectValue = globalThis.__threadlineInspect;
	var isExit = globalThis.__threadlineIsExit;

	// ---- assert ----
	function AssertionError(options) {
		var error = new Error(options.message);
		Object.setPrototypeOf(error, AssertionError.prototype);
		error.name = 'AssertionError';
		error.code = 'ERR_ASSERTION';
		error.generatedMessage = !options.userMessage;
		error.actual = options.actual;
		error.expected = options.expected;
		error.operator = options.operator;
		return error;
	}
	AssertionError.prototype = Object.create(Error.prototype);
	AssertionError.prototype.constructor = AssertionError;
	AssertionError.prototype.name = 'AssertionError';

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
		var keysA = Object.keys(a);
		var keysB = Object.keys(b);
		if (keysA.length !== keysB.length) return false;
		for (var k = 0; k < keysA.length; k++) {
			var key = keysA[k];
			if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
			if (!isDeepEqual(a[key], b[key], strict, seen)) return false;
		}
		return true;
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
	globalThis.__threadlineDefineBuiltin('assert/strict', function () { return strictAssert; });

	// ---- node:test ----
	var options = globalThis.__threadlineTestOptions || {};
	delete globalThis.__threadlineTestOptions;
	var write = function (text) { process.stdout.write(text + '\n'); };
	var counts = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
	var started = false;
	var headerPrinted = false;
	var finished = false;
	var topLevel = [];
	var topNumber = options.numberOffset || 0;
	var running = null;
	var startedAt = Date.now();
	var rootHooks = { before: [], after: [], beforeEach: [], afterEach: [] };
	var currentSuite = null;

	function Node(kind, name, optionsArg, fn, parent) {
		this.kind = kind;
		this.name = name;
		this.options = optionsArg || {};
		this.fn = fn;
		this.parent = parent;
		this.children = [];
		this.hooks = { before: [], after: [], beforeEach: [], afterEach: [] };
		this.location = callerLocation();
	}

	function callerLocation() {
		var stack = new Error().stack || '';
		var lines = stack.split('\n');
		for (var i = 0; i < lines.length; i++) {
			var match = /\((\/[^)]+:\d+:\d+)\)/.exec(lines[i]) || /at (\/\S+:\d+:\d+)/.exec(lines[i]);
			if (match && match[1].indexOf('threadline:') === -1) return match[1];
		}
		return undefined;
	}

	function parseArguments(name, optionsArg, fn) {
		if (typeof name === 'function') { fn = name; optionsArg = {}; name = fn.name || '<anonymous>'; }
		else if (typeof name === 'object' && name !== null) { fn = optionsArg; optionsArg = name; name = (fn && fn.name) || '<anonymous>'; }
		if (typeof optionsArg === 'function') { fn = optionsArg; optionsArg = {}; }
		return { name: String(name), options: optionsArg || {}, fn: fn };
	}

	function indent(depth) { return new Array(depth + 1).join('    '); }

	function yamlScalar(value) {
		if (typeof value === 'string') return "'" + value.replace(/'/g, "''") + "'";
		if (value === undefined) return 'undefined';
		try { return inspectValue(value).replace(/\n\s*/g, ' '); } catch (error) { return String(value); }
	}

	function userStack(error) {
		if (!error || typeof error.stack !== 'string') return [];
		return error.stack.split('\n').map(function (line) { return line.trim().replace(/^at /, ''); }).filter(function (line) { return line && line.indexOf('threadline:') === -1 && line.indexOf('(native)') === -1; });
	}

	function report(node, depth, number, outcome) {
		var pad = indent(depth);
		var directive = '';
		if (outcome.skip !== undefined) directive = ' # SKIP' + (typeof outcome.skip === 'string' ? ' ' + outcome.skip : '');
		else if (outcome.todo !== undefined) directive = ' # TODO' + (typeof outcome.todo === 'string' ? ' ' + outcome.todo : '');
		write(pad + (outcome.error ? 'not ok ' : 'ok ') + number + ' - ' + node.name + directive);
		write(pad + '  ---');
		write(pad + '  duration_ms: ' + outcome.duration);
		if (node.kind === 'suite') write(pad + "  type: 'suite'");
		if (outcome.error) {
			var error = outcome.error;
			if (node.location) write(pad + '  location: ' + yamlScalar(node.location));
			write(pad + '  failureType: ' + yamlScalar(outcome.failureType || 'testCodeFailure'));
			var message = error instanceof Error ? String(error.message) : 'Uncaught ' + inspectValue(error);
			if (outcome.failureType === 'subtestsFailed') write(pad + '  error: ' + yamlScalar(message));
			else {
				write(pad + '  error: |-');
				message.split('\n').forEach(function (line) { write(pad + '    ' + line); });
			}
			if (error && error.code) write(pad + '  code: ' + yamlScalar(error.code));
			if (error && error.name && outcome.failureType !== 'subtestsFailed') write(pad + '  name: ' + yamlScalar(error.name));
			if (error && 'expected' in error && error.operator) {
				write(pad + '  expected: ' + yamlScalar(error.expected));
				write(pad + '  actual: ' + yamlScalar(error.actual));
				write(pad + '  operator: ' + yamlScalar(error.operator));
			}
			var frames = outcome.failureType === 'subtestsFailed' ? [] : userStack(error);
			if (frames.length > 0) {
				write(pad + '  stack: |-');
				frames.slice(0, 10).forEach(function (frame) { write(pad + '    ' + frame); });
			}
		}
		write(pad + '  ...');
	}

	function ancestorsHooks(node, kind) {
		var chain = [];
		for (var current = node.parent; current; current = current.parent) chain.unshift(current);
		var list = rootHooks[kind].slice();
		chain.forEach(function (ancestor) { list = list.concat(ancestor.hooks[kind]); });
		return kind === 'afterEach' ? list.reverse() : list;
	}

	function runHook(hook, context) {
		return Promise.resolve().then(function () { return hook.fn.call(undefined, context); });
	}

	function runSequence(hooks, context) {
		return hooks.reduce(function (chain, hook) { return chain.then(function () { return runHook(hook, context); }); }, Promise.resolve());
	}

	function callWithDone(fn, context) {
		if (fn.length >= 2) {
			return new Promise(function (resolve, reject) {
				var result = fn.call(undefined, context, function (error) { if (error) reject(error); else resolve(); });
				if (result && typeof result.then === 'function') reject(new Error('passed a callback but also returned a Promise'));
			});
		}
		return Promise.resolve().then(function () { return fn.call(undefined, context); });
	}

	function TestContext(node, depth) {
		this._node = node;
		this._depth = depth;
		this._number = 0;
		this._pending = Promise.resolve();
		this.name = node.name;
		this.fullName = node.name;
		this.signal = { aborted: false, addEventListener: function () {}, removeEventListener: function () {} };
		this.mock = undefined;
	}
	TestContext.prototype.skip = function (message) { this._node.skipped = message === undefined ? true : message; };
	TestContext.prototype.todo = function (message) { this._node.todoed = message === undefined ? true : message; };
	TestContext.prototype.diagnostic = function (message) { this._node.diagnostics = (this._node.diagnostics || []).concat([String(message)]); };
	TestContext.prototype.plan = function () {};
	TestContext.prototype.before = function (fn) { this._node.hooks.before.push({ fn: fn }); };
	TestContext.prototype.after = function (fn) { this._node.hooks.after.push({ fn: fn }); };
	TestContext.prototype.beforeEach = function (fn) { this._node.hooks.beforeEach.push({ fn: fn }); };
	TestContext.prototype.afterEach = function (fn) { this._node.hooks.afterEach.push({ fn: fn }); };
	TestContext.prototype.test = function (name, optionsArg, fn) {
		var parsed = parseArguments(name, optionsArg, fn);
		var child = new Node('test', parsed.name, parsed.options, parsed.fn, this._node);
		this._node.children.push(child);
		var self = this;
		var run = this._pending.then(function () {
			if (!self._node.subtestHeader) self._node.subtestHeader = true;
			self._number += 1;
			return runNode(child, self._depth + 1, self._number);
		});
		this._pending = run.then(function () {}, function () {});
		return run.then(function () { return undefined; });
	};

	function runNode(node, depth, number) {
		var pad = indent(depth);
		write(pad + '# Subtest: ' + node.name);
		var start = Date.now();
		var skip = node.options.skip;
		var todo = node.options.todo;
		if (skip || (typeof node.fn !== 'function' && node.kind === 'test' && !todo)) {
			counts.tests += 1;
			counts.skipped += 1;
			report(node, depth, number, { duration: 0, skip: typeof skip === 'string' ? skip : true });
			return Promise.resolve(true);
		}
		if (node.kind === 'suite') return runSuite(node, depth, number, start);
		if (typeof node.fn !== 'function') {
			counts.tests += 1;
			counts.todo += 1;
			report(node, depth, number, { duration: 0, todo: typeof todo === 'string' ? todo : true });
			return Promise.resolve(true);
		}
		var context = new TestContext(node, depth);
		var failure = null;
		var failureType = 'testCodeFailure';
		var chain = runSequence(ancestorsHooks(node, 'beforeEach'), context)
			.then(function () { return callWithDone(node.fn, context); })
			.then(function () { return context._pending; })
			.then(null, function (error) { if (isExit(error)) throw error; failure = error; })
			.then(function () { return runSequence(node.hooks.after, context); })
			.then(function () { return runSequence(ancestorsHooks(node, 'afterEach'), context); })
			.then(null, function (error) { if (isExit(error)) throw error; if (!failure) { failure = error; failureType = 'hookFailed'; } });
		return chain.then(function () {
			if (context._number > 0) write(indent(depth + 1) + '1..' + context._number);
			if (!failure && node.childFailed) { failure = codeErrorLike('ERR_TEST_FAILURE', node.childFailed + ' subtest' + (node.childFailed === 1 ? '' : 's') + ' failed'); failureType = 'subtestsFailed'; }
			counts.tests += 1;
			var todoMark = node.todoed !== undefined ? node.todoed : todo;
			var outcome = { duration: Date.now() - start, error: failure, failureType: failureType };
			if (node.skipped !== undefined) { outcome.skip = node.skipped; counts.skipped += 1; }
			else if (todoMark) { outcome.todo = todoMark; counts.todo += 1; }
			else if (failure) counts.fail += 1;
			else counts.pass += 1;
			if (failure && !todoMark && node.parent) node.parent.childFailed = (node.parent.childFailed || 0) + 1;
			report(node, depth, number, outcome);
			(node.diagnostics || []).forEach(function (line) { write(indent(depth) + '# ' + line); });
			return !failure || !!todoMark;
		});
	}

	function codeErrorLike(code, message) {
		var error = new Error(message);
		error.code = code;
		return error;
	}

	function runSuite(node, depth, number, start) {
		counts.suites += 1;
		var context = new TestContext(node, depth);
		var failure = node.buildError || null;
		var failureType = node.buildError ? 'testCodeFailure' : 'subtestsFailed';
		var position = 0;
		var failedChildren = 0;
		var chain = failure ? Promise.resolve() : runSequence(node.hooks.before, context).then(null, function (error) { failure = error; failureType = 'hookFailed'; });
		return chain.then(function next() {
			if (failure && failureType === 'hookFailed') return undefined;
			if (position >= node.children.length) return undefined;
			var child = node.children[position];
			position += 1;
			return runNode(child, depth + 1, position).then(function (ok) { if (!ok) failedChildren += 1; return next(); });
		}).then(function () {
			return runSequence(node.hooks.after, context).then(null, function (error) { if (!failure) { failure = error; failureType = 'hookFailed'; } });
		}).then(function () {
			write(indent(depth + 1) + '1..' + node.children.length);
			if (!failure && failedChildren > 0) failure = codeErrorLike('ERR_TEST_FAILURE', failedChildren + ' subtest' + (failedChildren === 1 ? '' : 's') + ' failed');
			if (failure && failureType !== 'subtestsFailed') counts.fail += 1;
			report(node, depth, number, { duration: Date.now() - start, error: failure, failureType: failureType });
			return !failure;
		});
	}

	function schedule() {
		if (!headerPrinted) { headerPrinted = true; if (!options.quietHeader) write('TAP version 13'); }
		if (running) return;
		running = Promise.resolve().then(function loop() {
			if (topLevel.length === 0) { running = null; return undefined; }
			var node = topLevel.shift();
			topNumber += 1;
			return runNode(node, 0, topNumber).then(loop);
		});
		running.then(null, function (error) { if (!isExit(error)) throw error; });
	}

	function register(kind, name, optionsArg, fn) {
		var parsed = parseArguments(name, optionsArg, fn);
		var node = new Node(kind, parsed.name, parsed.options, parsed.fn, currentSuite);
		if (running && currentSuite === null && runningContextNode()) {
			// test() inside a running test without t.test: Node runs it as a subtest too.
		}
		if (kind === 'suite' && typeof parsed.fn === 'function' && !parsed.options.skip) {
			var outer = currentSuite;
			currentSuite = node;
			try {
				var result = parsed.fn.call(undefined, new TestContext(node, 0));
				if (result && typeof result.then === 'function') result.then(null, function (error) { node.buildError = error; });
			} catch (error) {
				if (isExit(error)) throw error;
				node.buildError = error;
			} finally {
				currentSuite = outer;
			}
		}
		if (currentSuite) currentSuite.children.push(node);
		else { topLevel.push(node); started = true; schedule(); }
		var settled = Promise.resolve();
		return settled;
	}
	function runningContextNode() { return null; }

	function api(kind) {
		var fn = function (name, optionsArg, body) { return register(kind, name, optionsArg, body); };
		fn.skip = function (name, optionsArg, body) { var parsed = parseArguments(name, optionsArg, body); parsed.options.skip = true; return register(kind, parsed.name, parsed.options, parsed.fn); };
		fn.todo = function (name, optionsArg, body) { var parsed = parseArguments(name, optionsArg, body); parsed.options.todo = true; return register(kind, parsed.name, parsed.options, parsed.fn); };
		fn.only = fn;
		return fn;
	}
	function hook(kind) {
		return function (fn) {
			if (currentSuite) currentSuite.hooks[kind].push({ fn: fn });
			else rootHooks[kind].push({ fn: fn });
		};
	}
	var test = api('test');
	var describe = api('suite');
	var testModule = test;
	testModule.test = test;
	testModule.it = api('test');
	testModule.describe = describe;
	testModule.suite = describe;
	testModule.before = function (fn) { if (currentSuite) currentSuite.hooks.before.push({ fn: fn }); else rootHooks.before.push({ fn: fn }); };
	testModule.after = function (fn) { if (currentSuite) currentSuite.hooks.after.push({ fn: fn }); else rootHooks.after.push({ fn: fn }); };
	testModule.beforeEach = hook('beforeEach');
	testModule.afterEach = hook('afterEach');
	testModule.mock = { fn: function (impl) { var calls = []; var mock = function () { var args = Array.prototype.slice.call(arguments); var result = impl ? impl.apply(this, args) : undefined; calls.push({ arguments: args, result: result }); return result; }; mock.mock = { calls: calls, callCount: function () { return calls.length; } }; return mock; } };
	globalThis.__threadlineDefineBuiltin('test', function () { return testModule; });

	// Root-level before/after run around all top-level tests; the summary is printed when
	// nothing else is left to run (Node's beforeExit), with exit code 1 on a failure.
	var rootBeforeRan = false;
	var originalSchedule = schedule;
	schedule = function () {
		if (!rootBeforeRan && rootHooks.before.length > 0) {
			rootBeforeRan = true;
			var hooks = rootHooks.before.slice();
			var gate = topLevel.slice();
			topLevel.length = 0;
			if (!headerPrinted) { headerPrinted = true; if (!options.quietHeader) write('TAP version 13'); }
			running = runSequence(hooks, {}).then(function () { running = null; gate.forEach(function (node) { topLevel.push(node); }); originalSchedule(); });
			return;
		}
		originalSchedule();
	};

	globalThis.__threadlineBeforeExitHooks = (globalThis.__threadlineBeforeExitHooks || []).concat([function () {
		if (!started || finished) return false;
		if (running || topLevel.length > 0) return true;
		if (rootHooks.after.length > 0 && !rootHooks.afterRan) {
			rootHooks.afterRan = true;
			running = runSequence(rootHooks.after, {}).then(function () { running = null; });
			return true;
		}
		finished = true;
		if (options.collect) {
			globalThis.__threadlineTestCounts = JSON.stringify({ counts: counts, last: topNumber });
		} else {
			write('1..' + topNumber);
			write('# tests ' + counts.tests);
			write('# suites ' + counts.suites);
			write('# pass ' + counts.pass);
			write('# fail ' + counts.fail);
			write('# cancelled ' + counts.cancelled);
			write('# skipped ' + counts.skipped);
			write('# todo ' + counts.todo);
			write('# duration_ms ' + (Date.now() - startedAt));
		}
		if (counts.fail > 0) process.exitCode = 1;
		return false;
	}]);
})();
`;
