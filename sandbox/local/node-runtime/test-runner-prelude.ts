/**
 * `node:test` for the offline runtime, evaluated after assert-prelude.ts and
 * test-mock-prelude.ts. It prints Node 20's TAP (`# Subtest:`, `ok N - name`, YAML diagnostics,
 * the `# tests/suites/pass/fail/cancelled/skipped/todo` summary) and sets exit code 1 when a
 * test fails.
 *
 * What it has: test/it/describe/suite (`.skip`, `.todo`, `.only` runs like a plain test, as
 * without `--test-only`), options `{ skip, todo, timeout, plan, signal, concurrency }`, the
 * context (`t.test`, `t.assert` counted by `t.plan`, `t.mock` restored after the test,
 * `t.signal` aborted when the test ends or times out, `t.skip()`, `t.todo()`, `t.diagnostic`,
 * `t.before/after/beforeEach/afterEach`, `t.name`, `t.fullName`, `t.filePath`), done callbacks,
 * hooks at file, suite and test level, an exception thrown by a timer failing the running test,
 * and a test that never settles cancelled when nothing is left to run (Node's "Promise
 * resolution is still pending but the event loop has already resolved"). Tests run one at a
 * time (concurrency is accepted, not used). Not there: snapshots, `--test-only` filtering,
 * `run()`.
 *
 * `__threadlineTestOptions` (set by the host): `{ numberOffset, quietHeader, collect }` for
 * `node --test`, which runs each file in its own runtime and adds up their counts.
 */
export const testRunnerPrelude = String.raw`
(function () {
	'use strict';
	var inspectValue = globalThis.__threadlineInspect;
	var isExit = globalThis.__threadlineIsExit;
	var assertModule = globalThis.__threadlineAssert;
	var MockTracker = globalThis.__threadlineMockTracker;
	delete globalThis.__threadlineMockTracker;
	var realSetTimeout = globalThis.setTimeout;
	var realClearTimeout = globalThis.clearTimeout;
	var stdoutWrite = process.stdout.write;
	var options = globalThis.__threadlineTestOptions || {};
	delete globalThis.__threadlineTestOptions;
	var write = function (text) { stdoutWrite.call(process.stdout, text + '\n'); };
	var counts = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
	var startedAt = Date.now();
	var filePath = typeof __filename === 'string' ? __filename : undefined;

	function codeError(code, message, extra) {
		var error = new Error(message);
		error.code = code;
		if (extra) Object.keys(extra).forEach(function (key) { error[key] = extra[key]; });
		return error;
	}

	function Node(kind, name, nodeOptions, fn, parent) {
		this.kind = kind;
		this.name = name;
		this.options = nodeOptions || {};
		this.fn = fn;
		this.parent = parent;
		this.children = [];
		this.hooks = { before: [], after: [], beforeEach: [], afterEach: [] };
		this.location = callerLocation();
		this.buildPromise = null;
	}
	Node.prototype.fullName = function () {
		var names = [];
		for (var node = this; node && node.kind !== 'root'; node = node.parent) names.unshift(node.name);
		return names.join(' > ');
	};

	var root = new Node('root', '<root>', {}, null, null);
	root.depth = -1;

	function callerLocation() {
		var stack = String(new Error().stack || '');
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
		else if (name === undefined) name = (typeof optionsArg === 'function' && optionsArg.name) || (typeof fn === 'function' && fn.name) || '<anonymous>';
		if (typeof optionsArg === 'function') { fn = optionsArg; optionsArg = {}; }
		return { name: String(name), options: Object.assign({}, optionsArg || {}), fn: fn };
	}

	function indent(depth) { return new Array(depth + 1).join('    '); }

	function yamlScalar(value) {
		if (typeof value === 'string') return "'" + value.replace(/'/g, "''") + "'";
		if (value === undefined) return 'undefined';
		try { return inspectValue(value).replace(/\n\s*/g, ' '); } catch (error) { return String(value); }
	}

	function userStack(error) {
		var stack;
		try { stack = error && error.stack; } catch (ignored) { return []; }
		if (typeof stack !== 'string') return [];
		return stack.split('\n').filter(function (line) { return /^\s+at /.test(line); }).map(function (line) { return line.trim().replace(/^at /, ''); }).filter(function (line) { return line.indexOf('threadline:') === -1 && line.indexOf('(native)') === -1; });
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
			var message;
			try { message = error instanceof Error ? String(error.message) : 'Uncaught ' + inspectValue(error); } catch (ignored) { message = 'Uncaught exception'; }
			if (outcome.failureType === 'subtestsFailed' || outcome.failureType === 'cancelledByParent' || outcome.failureType === 'testTimeoutFailure') write(pad + '  error: ' + yamlScalar(message));
			else {
				write(pad + '  error: |-');
				message.split('\n').forEach(function (line) { write(pad + '    ' + line); });
			}
			if (error && error.code) write(pad + '  code: ' + yamlScalar(error.code));
			if (error && error.name && outcome.failureType !== 'subtestsFailed' && outcome.failureType !== 'cancelledByParent') write(pad + '  name: ' + yamlScalar(error.name));
			if (error && typeof error === 'object' && 'expected' in error && error.operator) {
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

	function ancestorHooks(node, kind) {
		var chain = [];
		for (var current = node.parent; current; current = current.parent) chain.unshift(current);
		var list = [];
		chain.forEach(function (ancestor) { list = list.concat(ancestor.hooks[kind]); });
		return kind === 'afterEach' ? list.reverse() : list;
	}

	// Calls fn(context[, done]) as Node does: a second parameter means a done callback.
	function invoke(fn, context, withDone) {
		if (withDone && fn.length >= 2) {
			return new Promise(function (resolve, reject) {
				var called = false;
				var result = fn.call(context, context, function (error) {
					if (called) return;
					called = true;
					if (error) reject(error); else resolve();
				});
				if (result && typeof result.then === 'function') {
					result.then(function () { reject(codeError('ERR_TEST_FAILURE', 'passed a callback but also returned a Promise', { failureType: 'callbackAndPromisePresent' })); }, reject);
				}
			});
		}
		return Promise.resolve().then(function () { return fn.call(context, context); });
	}

	function runSequence(hooks, context) {
		return hooks.reduce(function (chain, hook) {
			return chain.then(function () { return withTimeout(invoke(hook.fn, context, true), hook.options && hook.options.timeout, null); });
		}, Promise.resolve());
	}

	// A test's or hook's promise raced against its timeout (virtual time, as all timers here).
	function withTimeout(promise, timeout, onTimeout) {
		if (timeout === undefined || timeout === null || timeout === Infinity || !(timeout >= 0)) return promise;
		return new Promise(function (resolve, reject) {
			var timer = realSetTimeout(function () {
				if (onTimeout) onTimeout();
				reject(codeError('ERR_TEST_FAILURE', 'test timed out after ' + timeout + 'ms', { failureType: 'testTimeoutFailure' }));
			}, timeout);
			promise.then(function (value) { realClearTimeout(timer); resolve(value); }, function (error) { realClearTimeout(timer); reject(error); });
		});
	}

	// The tests now running, innermost last: an uncaught exception or the end of all work lands
	// on the innermost.
	var active = [];

	function TestContext(node, depth) {
		this._node = node;
		this._depth = depth;
		this._number = 0;
		this._pending = Promise.resolve();
		this._assertions = 0;
		this._plan = node.options.plan;
		this._controller = new AbortController();
		this._mock = null;
		this._assert = null;
	}
	Object.defineProperty(TestContext.prototype, 'name', { get: function () { return this._node.name; } });
	Object.defineProperty(TestContext.prototype, 'fullName', { get: function () { return this._node.fullName(); } });
	Object.defineProperty(TestContext.prototype, 'filePath', { get: function () { return filePath; } });
	Object.defineProperty(TestContext.prototype, 'signal', { get: function () { return this._controller.signal; } });
	Object.defineProperty(TestContext.prototype, 'passed', { get: function () { return !this._node.failure; } });
	Object.defineProperty(TestContext.prototype, 'mock', { get: function () { if (!this._mock) this._mock = new MockTracker(); return this._mock; } });
	Object.defineProperty(TestContext.prototype, 'assert', {
		get: function () {
			if (this._assert) return this._assert;
			var self = this;
			var wrapped = {};
			Object.keys(assertModule).forEach(function (key) {
				var method = assertModule[key];
				if (typeof method !== 'function' || key === 'AssertionError' || key === 'strict') return;
				wrapped[key] = function () { self._assertions += 1; return method.apply(assertModule, arguments); };
			});
			this._assert = wrapped;
			return wrapped;
		}
	});
	TestContext.prototype.skip = function (message) { this._node.skipped = message === undefined ? true : String(message); };
	TestContext.prototype.todo = function (message) { this._node.todoed = message === undefined ? true : String(message); };
	TestContext.prototype.diagnostic = function (message) { this._node.diagnostics = (this._node.diagnostics || []).concat([String(message)]); };
	TestContext.prototype.plan = function (count) {
		if (this._plan !== undefined) throw codeError('ERR_TEST_FAILURE', 'cannot set plan more than once');
		if (typeof count !== 'number' || count < 0) throw codeError('ERR_INVALID_ARG_TYPE', 'The "count" argument must be of type number');
		this._plan = count;
	};
	TestContext.prototype.runOnly = function () {};
	TestContext.prototype.before = function (fn, hookOptions) { this._node.hooks.before.push({ fn: fn, options: hookOptions }); };
	TestContext.prototype.after = function (fn, hookOptions) { this._node.hooks.after.push({ fn: fn, options: hookOptions }); };
	TestContext.prototype.beforeEach = function (fn, hookOptions) { this._node.hooks.beforeEach.push({ fn: fn, options: hookOptions }); };
	TestContext.prototype.afterEach = function (fn, hookOptions) { this._node.hooks.afterEach.push({ fn: fn, options: hookOptions }); };
	TestContext.prototype.test = function (name, optionsArg, fn) {
		var parsed = parseArguments(name, optionsArg, fn);
		var child = new Node('test', parsed.name, parsed.options, parsed.fn, this._node);
		this._node.children.push(child);
		this._assertions += 1;
		var self = this;
		var run = this._pending.then(function () {
			// t.before hooks run once, before the first subtest.
			if (self._beforeRan) return undefined;
			self._beforeRan = true;
			return runSequence(self._node.hooks.before, self);
		}).then(function () {
			self._number += 1;
			return runNode(child, self._depth + 1, self._number);
		});
		this._pending = run.then(function () {}, function () {});
		return run.then(function () { return undefined; });
	};

	function SuiteContext(node) { this._node = node; this._controller = new AbortController(); }
	Object.defineProperty(SuiteContext.prototype, 'name', { get: function () { return this._node.name; } });
	Object.defineProperty(SuiteContext.prototype, 'fullName', { get: function () { return this._node.fullName(); } });
	Object.defineProperty(SuiteContext.prototype, 'filePath', { get: function () { return filePath; } });
	Object.defineProperty(SuiteContext.prototype, 'signal', { get: function () { return this._controller.signal; } });

	function runNode(node, depth, number) {
		write(indent(depth) + '# Subtest: ' + node.name);
		var skip = node.options.skip;
		var todo = node.options.todo;
		if (skip) {
			counts.tests += 1;
			counts.skipped += 1;
			report(node, depth, number, { duration: 0, skip: typeof skip === 'string' ? skip : true });
			return Promise.resolve(true);
		}
		if (node.kind === 'suite') return runSuite(node, depth, number);
		if (typeof node.fn !== 'function') {
			counts.tests += 1;
			if (todo) {
				counts.todo += 1;
				report(node, depth, number, { duration: 0, todo: typeof todo === 'string' ? todo : true });
			} else {
				counts.pass += 1;
				report(node, depth, number, { duration: 0 });
			}
			return Promise.resolve(true);
		}
		return runTest(node, depth, number);
	}

	function runTest(node, depth, number) {
		var start = Date.now();
		var todo = node.options.todo;
		var context = new TestContext(node, depth);
		var failure = null;
		var failureType = 'testCodeFailure';
		var entry = { node: node, fail: null };
		// The test's own body, settled early by an uncaught exception or a cancellation.
		var body = new Promise(function (resolve, reject) {
			entry.fail = function (error, type) { failureType = type || 'uncaughtException'; reject(error); };
			active.push(entry);
			var userSignal = node.options.signal;
			if (userSignal) {
				if (userSignal.aborted) { reject(userSignal.reason); return; }
				userSignal.addEventListener('abort', function () { reject(userSignal.reason); }, { once: true });
			}
			var ran = runSequence(ancestorHooks(node, 'beforeEach'), context).then(function () {
				return withTimeout(invoke(node.fn, context, true), node.options.timeout, function () { context._controller.abort(); });
			}).then(function () { return context._pending; });
			ran.then(resolve, reject);
		});
		var chain = body.then(null, function (error) {
			if (isExit(error)) throw error;
			failure = error;
			if (error && error.failureType) failureType = error.failureType;
		}).then(function () {
			// A planned test may still be counting: code that ran right after its end (a
			// callback after done(), a tick) is counted, as by Node, which checks a turn later.
			if (failure || context._plan === undefined || context._assertions === context._plan) return undefined;
			return new Promise(function (resolve) { realSetTimeout(resolve, 0); });
		}).then(function () {
			var index = active.indexOf(entry);
			if (index !== -1) active.splice(index, 1);
			if (!failure && context._plan !== undefined && context._assertions !== context._plan) {
				failure = codeError('ERR_TEST_FAILURE', 'plan expected ' + context._plan + ' assertions but received ' + context._assertions);
			}
			node.failure = failure;
			return runSequence(node.hooks.after, context);
		}).then(function () { return runSequence(ancestorHooks(node, 'afterEach'), context); })
			.then(null, function (error) { if (isExit(error)) throw error; if (!failure) { failure = error; failureType = 'hookFailed'; } });
		return chain.then(function () {
			if (!context._controller.signal.aborted) context._controller.abort();
			if (context._mock) context._mock.reset();
			if (context._number > 0) write(indent(depth + 1) + '1..' + context._number);
			if (!failure && node.childFailed) { failure = codeError('ERR_TEST_FAILURE', node.childFailed + ' subtest' + (node.childFailed === 1 ? '' : 's') + ' failed'); failureType = 'subtestsFailed'; }
			counts.tests += 1;
			var todoMark = node.todoed !== undefined ? node.todoed : todo;
			var outcome = { duration: Date.now() - start, error: failure, failureType: failureType };
			if (node.skipped !== undefined) { outcome.skip = node.skipped; counts.skipped += 1; }
			else if (todoMark) { outcome.todo = todoMark; counts.todo += 1; }
			else if (failure && failureType === 'cancelledByParent') counts.cancelled += 1;
			else if (failure) counts.fail += 1;
			else counts.pass += 1;
			if (failure && !todoMark && node.parent) node.parent.childFailed = (node.parent.childFailed || 0) + 1;
			report(node, depth, number, outcome);
			(node.diagnostics || []).forEach(function (line) { write(indent(depth) + '# ' + line); });
			return !failure || !!todoMark;
		});
	}

	function runSuite(node, depth, number) {
		var start = Date.now();
		counts.suites += 1;
		var context = new SuiteContext(node);
		var failure = null;
		var failureType = 'subtestsFailed';
		var position = 0;
		var failedChildren = 0;
		var built = node.buildPromise || Promise.resolve();
		var chain = built.then(function () {
			if (node.buildError) { failure = node.buildError; failureType = 'testCodeFailure'; return undefined; }
			return runSequence(node.hooks.before, context).then(null, function (error) { failure = error; failureType = 'hookFailed'; });
		});
		return chain.then(function next() {
			if (failure) return undefined;
			if (position >= node.children.length) return undefined;
			var child = node.children[position];
			position += 1;
			return runNode(child, depth + 1, position).then(function (ok) { if (!ok) failedChildren += 1; return next(); });
		}).then(function () {
			if (node.buildError) return undefined;
			return runSequence(node.hooks.after, context).then(null, function (error) { if (!failure) { failure = error; failureType = 'hookFailed'; } });
		}).then(function () {
			context._controller.abort();
			write(indent(depth + 1) + '1..' + position);
			if (!failure && failedChildren > 0) failure = codeError('ERR_TEST_FAILURE', failedChildren + ' subtest' + (failedChildren === 1 ? '' : 's') + ' failed');
			if (failure && failureType !== 'subtestsFailed') counts.fail += 1;
			if (failure && node.parent) node.parent.childFailed = (node.parent.childFailed || 0) + 1;
			report(node, depth, number, { duration: Date.now() - start, error: failure, failureType: failureType });
			return !failure;
		});
	}

	// The file's top level: its tests in order, with the root hooks around them.
	var currentSuite = null;
	var headerPrinted = false;
	var started = false;
	var finished = false;
	var running = false;
	var rootBeforeDone = false;
	var rootPosition = 0;
	var topNumber = options.numberOffset || 0;

	function pump() {
		if (running) return;
		running = true;
		var step = rootBeforeDone ? Promise.resolve() : runSequence(root.hooks.before, new SuiteContext(root)).then(function () { rootBeforeDone = true; }, function (error) {
			rootBeforeDone = true;
			root.beforeError = error;
		});
		step.then(function loop() {
			if (rootPosition >= root.children.length) { running = false; return undefined; }
			var node = root.children[rootPosition];
			rootPosition += 1;
			topNumber += 1;
			if (root.beforeError) {
				write('# Subtest: ' + node.name);
				counts.tests += 1;
				counts.fail += 1;
				report(node, 0, topNumber, { duration: 0, error: root.beforeError, failureType: 'hookFailed' });
				return loop();
			}
			return runNode(node, 0, topNumber).then(loop);
		}).then(null, function (error) { running = false; if (!isExit(error)) throw error; });
	}

	function register(kind, name, optionsArg, fn) {
		var parsed = parseArguments(name, optionsArg, fn);
		var node = new Node(kind, parsed.name, parsed.options, parsed.fn, currentSuite || root);
		if (kind === 'suite' && typeof parsed.fn === 'function' && !parsed.options.skip) {
			var outer = currentSuite;
			currentSuite = node;
			try {
				var result = parsed.fn.call(undefined, new SuiteContext(node));
				if (result && typeof result.then === 'function') {
					node.buildPromise = Promise.resolve(result).then(null, function (error) { if (isExit(error)) throw error; node.buildError = error; });
				}
			} catch (error) {
				if (isExit(error)) throw error;
				node.buildError = error;
			} finally {
				currentSuite = outer;
			}
		}
		(currentSuite || root).children.push(node);
		if (!currentSuite) {
			started = true;
			if (!headerPrinted) { headerPrinted = true; if (!options.quietHeader) write('TAP version 13'); }
			pump();
		}
		return Promise.resolve();
	}

	function api(kind) {
		var fn = function (name, optionsArg, body) { return register(kind, name, optionsArg, body); };
		fn.skip = function (name, optionsArg, body) { var parsed = parseArguments(name, optionsArg, body); parsed.options.skip = parsed.options.skip || true; return register(kind, parsed.name, parsed.options, parsed.fn); };
		fn.todo = function (name, optionsArg, body) { var parsed = parseArguments(name, optionsArg, body); parsed.options.todo = parsed.options.todo || true; return register(kind, parsed.name, parsed.options, parsed.fn); };
		fn.only = function (name, optionsArg, body) { return register(kind, name, optionsArg, body); };
		return fn;
	}
	function hook(kind) {
		return function (fn, hookOptions) { (currentSuite || root).hooks[kind].push({ fn: fn, options: hookOptions }); };
	}

	// An uncaught exception (a timer's, a tick's) fails the innermost running test, as in Node.
	globalThis.__threadlineTestUncaught = function (error) {
		if (active.length === 0) return false;
		active[active.length - 1].fail(error, 'uncaughtException');
		return true;
	};

	var test = api('test');
	var describe = api('suite');
	var testModule = test;
	testModule.test = test;
	testModule.it = api('test');
	testModule.describe = describe;
	testModule.suite = describe;
	testModule.before = hook('before');
	testModule.after = hook('after');
	testModule.beforeEach = hook('beforeEach');
	testModule.afterEach = hook('afterEach');
	testModule.mock = new MockTracker();
	testModule.run = function () { throw codeError('ERR_NOT_SUPPORTED', 'run() is not available in the offline runtime; use node --test'); };
	globalThis.__threadlineDefineBuiltin('test', function () { return testModule; });

	// When nothing else is left to run (Node's beforeExit): a test still waiting is cancelled
	// (its promise can never settle), the root after hooks run, then the summary.
	globalThis.__threadlineBeforeExitHooks = (globalThis.__threadlineBeforeExitHooks || []).concat([function () {
		if (!started || finished) return false;
		if (active.length > 0) {
			var stuck = active.pop();
			stuck.fail(codeError('ERR_TEST_FAILURE', 'Promise resolution is still pending but the event loop has already resolved'), 'cancelledByParent');
			return true;
		}
		if (running && !root.stuckReported) {
			// No test is waiting, yet the file has not finished: a hook never settled.
			root.stuckReported = true;
			counts.fail += 1;
			write('# a before/after hook never settled (Promise resolution is still pending but the event loop has already resolved)');
			running = false;
			rootPosition = root.children.length;
		}
		if (!running && rootPosition < root.children.length) { pump(); return true; }
		if (root.hooks.after.length > 0 && !root.afterRan) {
			root.afterRan = true;
			running = true;
			runSequence(root.hooks.after, new SuiteContext(root)).then(function () { running = false; }, function (error) {
				running = false;
				counts.fail += 1;
				write('# after hook failed: ' + (error && error.message));
			});
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
		if (counts.fail > 0 || counts.cancelled > 0) process.exitCode = 1;
		return false;
	}]);
})();
`;
