/**
 * The `mock` of `node:test` (and each test's `t.mock`) for the offline runtime: `mock.fn`,
 * `mock.method` (also getters/setters), `mock.getter`/`mock.setter`, call records
 * (`calls`, `callCount()`, `mockImplementation`, `mockImplementationOnce`, `resetCalls`,
 * `restore`), `mock.reset()`/`restoreAll()`, and `mock.timers` (setTimeout, setInterval,
 * setImmediate and Date: `enable`, `tick`, `runAll`, `setTime`, `reset`). Evaluated before
 * test-runner-prelude.ts, which takes `__threadlineMockTracker`. Plain ES2020 in a string.
 */
export const testMockPrelude = String.raw`
(function () {
	'use strict';
	function codeError(Kind, code, message) { var error = new Kind(message); error.code = code; return error; }
	var realTimers = {
		setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout,
		setInterval: globalThis.setInterval, clearInterval: globalThis.clearInterval,
		setImmediate: globalThis.setImmediate, clearImmediate: globalThis.clearImmediate,
		Date: globalThis.Date
	};

	function MockFunctionContext(implementation, restore, times) {
		this._implementation = implementation;
		this._onceImplementations = new Map();
		this._calls = [];
		this._restore = restore;
		this._times = times;
	}
	Object.defineProperty(MockFunctionContext.prototype, 'calls', { get: function () { return this._calls.slice(); } });
	MockFunctionContext.prototype.callCount = function () { return this._calls.length; };
	MockFunctionContext.prototype.mockImplementation = function (implementation) {
		if (typeof implementation !== 'function') throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "implementation" argument must be of type function');
		this._implementation = implementation;
	};
	MockFunctionContext.prototype.mockImplementationOnce = function (implementation, onCall) {
		if (typeof implementation !== 'function') throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "implementation" argument must be of type function');
		this._onceImplementations.set(onCall === undefined ? this._calls.length : onCall, implementation);
	};
	MockFunctionContext.prototype.resetCalls = function () { this._calls = []; };
	MockFunctionContext.prototype.restore = function () { if (this._restore) this._restore(); };
	MockFunctionContext.prototype._next = function (original) {
		var call = this._calls.length;
		if (this._onceImplementations.has(call)) { var once = this._onceImplementations.get(call); this._onceImplementations.delete(call); return once; }
		if (this._times !== undefined && call >= this._times) return original;
		return this._implementation;
	};

	function makeMock(original, implementation, options, restore) {
		var context = new MockFunctionContext(implementation, restore, options && options.times);
		var mock = function () {
			var args = Array.prototype.slice.call(arguments);
			var chosen = context._next(original) || function () {};
			var call = { arguments: args, error: undefined, result: undefined, stack: new Error(), target: new.target, this: this };
			try {
				call.result = new.target ? Reflect.construct(chosen, args, new.target) : chosen.apply(this, args);
			} catch (error) {
				call.error = error;
				context._calls.push(call);
				throw error;
			}
			context._calls.push(call);
			return call.result;
		};
		Object.defineProperty(mock, 'mock', { value: context, enumerable: false, configurable: true });
		Object.defineProperty(mock, 'name', { value: (original && original.name) || 'mock', configurable: true });
		Object.defineProperty(mock, 'length', { value: original ? original.length : 0, configurable: true });
		return mock;
	}

	function MockTimers(tracker) { this._tracker = tracker; this._enabled = null; }
	MockTimers.prototype.enable = function (options) {
		if (this._enabled) throw codeError(Error, 'ERR_INVALID_STATE', 'The MockTimers is already enabled!');
		var apis = (options && options.apis) || ['setInterval', 'setTimeout', 'setImmediate', 'Date'];
		var self = this;
		var state = { now: options && options.now !== undefined ? Number(options.now instanceof Date ? options.now.getTime() : options.now) : 0, timers: [], nextId: 1, order: 0, apis: apis, saved: {} };
		this._enabled = state;
		function add(callback, delay, args, repeat) {
			var wait = Math.max(1, Number(delay) || 0);
			var timer = { id: state.nextId++, at: state.now + wait, order: state.order++, callback: callback, args: args, repeat: repeat ? wait : 0 };
			state.timers.push(timer);
			var handle = { id: timer.id, ref: function () { return handle; }, unref: function () { return handle; }, hasRef: function () { return true; }, refresh: function () { timer.at = state.now + wait; return handle; } };
			handle[Symbol.toPrimitive] = function () { return timer.id; };
			return handle;
		}
		function remove(handle) {
			var id = handle && typeof handle === 'object' ? handle.id : handle;
			state.timers = state.timers.filter(function (timer) { return timer.id !== id; });
		}
		var replacements = {
			setTimeout: function (callback, delay) { return add(callback, delay, Array.prototype.slice.call(arguments, 2), false); },
			clearTimeout: remove,
			setInterval: function (callback, delay) { return add(callback, delay, Array.prototype.slice.call(arguments, 2), true); },
			clearInterval: remove,
			setImmediate: function (callback) { return add(callback, 0, Array.prototype.slice.call(arguments, 1), false); },
			clearImmediate: remove
		};
		var timersModule = globalThis.__threadlineBuiltin('timers');
		apis.forEach(function (api) {
			if (api === 'Date') {
				var RealDate = realTimers.Date;
				var MockDate = function () {
					var args = Array.prototype.slice.call(arguments);
					if (!new.target) return new RealDate(state.now).toString();
					return args.length === 0 ? new RealDate(state.now) : Reflect.construct(RealDate, args);
				};
				MockDate.prototype = RealDate.prototype;
				MockDate.now = function () { return state.now; };
				MockDate.parse = RealDate.parse;
				MockDate.UTC = RealDate.UTC;
				state.saved.Date = globalThis.Date;
				globalThis.Date = MockDate;
				return;
			}
			if (!(api in replacements)) throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', "The property 'options.apis' option " + api + ' is not supported');
			var clearName = 'clear' + api.slice(3);
			state.saved[api] = globalThis[api];
			state.saved[clearName] = globalThis[clearName];
			globalThis[api] = replacements[api];
			globalThis[clearName] = replacements[clearName];
			timersModule[api] = replacements[api];
			timersModule[clearName] = replacements[clearName];
		});
		void self;
	};
	MockTimers.prototype._state = function () {
		if (!this._enabled) throw codeError(Error, 'ERR_INVALID_STATE', 'You should enable MockTimers first by calling the .enable function');
		return this._enabled;
	};
	MockTimers.prototype.tick = function (milliseconds) {
		var state = this._state();
		var ms = milliseconds === undefined ? 1 : Number(milliseconds);
		if (ms < 0) throw codeError(RangeError, 'ERR_INVALID_ARG_VALUE', "The argument 'time' must be a positive number");
		var target = state.now + ms;
		for (;;) {
			var next = null;
			state.timers.forEach(function (timer) { if (timer.at <= target && (!next || timer.at < next.at || (timer.at === next.at && timer.order < next.order))) next = timer; });
			if (!next) break;
			state.now = Math.max(state.now, next.at);
			if (next.repeat) { next.at += next.repeat; next.order = state.order++; }
			else state.timers = state.timers.filter(function (timer) { return timer !== next; });
			next.callback.apply(undefined, next.args);
		}
		state.now = target;
	};
	MockTimers.prototype.runAll = function () {
		var state = this._state();
		var guard = 0;
		while (state.timers.length > 0 && guard++ < 100000) {
			var latest = state.timers.reduce(function (max, timer) { return Math.max(max, timer.at); }, state.now);
			this.tick(latest - state.now);
			if (state.timers.every(function (timer) { return timer.repeat; })) break;
		}
	};
	MockTimers.prototype.setTime = function (time) { this._state().now = Number(time); };
	MockTimers.prototype.reset = function () {
		var state = this._enabled;
		if (!state) return;
		var timersModule = globalThis.__threadlineBuiltin('timers');
		Object.keys(state.saved).forEach(function (name) {
			globalThis[name] = state.saved[name];
			if (name !== 'Date') timersModule[name] = state.saved[name];
		});
		this._enabled = null;
	};
	MockTimers.prototype[Symbol.dispose || Symbol.for('nodejs.dispose')] = function () { this.reset(); };

	function MockTracker() { this._mocks = []; this.timers = new MockTimers(this); }
	MockTracker.prototype.fn = function (original, implementation, options) {
		if (original !== null && typeof original === 'object') { options = original; original = function () {}; implementation = undefined; }
		else if (implementation !== null && typeof implementation === 'object') { options = implementation; implementation = undefined; }
		if (original === undefined) original = function () {};
		var mock = makeMock(original, implementation === undefined ? original : implementation, options);
		this._mocks.push(mock.mock);
		return mock;
	};
	MockTracker.prototype.method = function (object, methodName, implementation, options) {
		if (implementation !== null && typeof implementation === 'object' && typeof implementation !== 'function') { options = implementation; implementation = undefined; }
		options = options || {};
		if (object === null || (typeof object !== 'object' && typeof object !== 'function')) throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "object" argument must be of type object');
		var owner = object;
		var descriptor;
		while (owner && !(descriptor = Object.getOwnPropertyDescriptor(owner, methodName))) owner = Object.getPrototypeOf(owner);
		if (!descriptor) throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', "The argument 'methodName' must be a method. Received " + String(methodName));
		var accessor = options.getter ? 'get' : options.setter ? 'set' : null;
		var original = accessor ? descriptor[accessor] : descriptor.value;
		if (typeof original !== 'function') throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', "The argument 'methodName' must be a method. Received " + String(methodName));
		var ownDescriptor = Object.getOwnPropertyDescriptor(object, methodName);
		var restore = function () {
			if (ownDescriptor) Object.defineProperty(object, methodName, ownDescriptor);
			else delete object[methodName];
		};
		var mock = makeMock(original, implementation === undefined ? original : implementation, options, restore);
		var replacement = { configurable: true, enumerable: descriptor.enumerable };
		if (accessor) {
			replacement.get = accessor === 'get' ? mock : descriptor.get;
			replacement.set = accessor === 'set' ? mock : descriptor.set;
		} else {
			replacement.value = mock;
			replacement.writable = descriptor.writable !== false;
		}
		Object.defineProperty(object, methodName, replacement);
		this._mocks.push(mock.mock);
		return mock;
	};
	MockTracker.prototype.getter = function (object, methodName, implementation, options) {
		return this.method(object, methodName, implementation, Object.assign({}, options, { getter: true }));
	};
	MockTracker.prototype.setter = function (object, methodName, implementation, options) {
		return this.method(object, methodName, implementation, Object.assign({}, options, { setter: true }));
	};
	MockTracker.prototype.restoreAll = function () { this._mocks.forEach(function (context) { context.restore(); }); };
	MockTracker.prototype.reset = function () {
		this.restoreAll();
		this.timers.reset();
		this._mocks = [];
	};
	globalThis.__threadlineMockTracker = MockTracker;
})();
`;
