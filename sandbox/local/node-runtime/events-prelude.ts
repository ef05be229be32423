/**
 * `node:events` and the web event globals for the offline runtime: EventEmitter as Node has it
 * (newListener/removeListener events, prepend, once, error and errorMonitor, max listeners,
 * rawListeners, `events.once` and the `events.on` async iterator, with AbortSignal support),
 * and EventTarget, Event, CustomEvent, AbortController, AbortSignal (abort, timeout, any) and
 * DOMException. Evaluated after errors-prelude.ts and before runtime-prelude.ts, which takes
 * EventEmitter from `__threadlineEvents` (process is one). Plain ES2020 in a string.
 */
export const eventsPrelude = String.raw`
(function () {
	'use strict';
	function codeError(Kind, code, message) { var error = new Kind(message); error.code = code; return error; }
	function checkListener(listener) {
		if (typeof listener !== 'function') throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "listener" argument must be of type function. Received ' + (listener === null ? 'null' : typeof listener));
	}

	// ---- DOMException ----
	var domCodes = { IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5, NoModificationAllowedError: 7, NotFoundError: 8, NotSupportedError: 9, InvalidStateError: 11, SyntaxError: 12, InvalidModificationError: 13, NamespaceError: 14, InvalidAccessError: 15, TypeMismatchError: 17, SecurityError: 18, NetworkError: 19, AbortError: 20, URLMismatchError: 21, QuotaExceededError: 22, TimeoutError: 23, InvalidNodeTypeError: 24, DataCloneError: 25 };
	class DOMException extends Error {
		constructor(message, options) {
			super(message === undefined ? '' : String(message));
			var name = typeof options === 'string' ? options : options && options.name !== undefined ? String(options.name) : 'Error';
			Object.defineProperty(this, 'name', { value: name, configurable: true, writable: true, enumerable: false });
			if (options && typeof options === 'object' && 'cause' in options) Object.defineProperty(this, 'cause', { value: options.cause, configurable: true, writable: true, enumerable: false });
		}
		get code() { return domCodes[this.name] || 0; }
	}
	Object.keys(domCodes).forEach(function (name) {
		var constant = name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase().replace(/_ERROR$/, '_ERR');
		DOMException[constant] = domCodes[name];
	});
	globalThis.DOMException = DOMException;

	// ---- EventEmitter ----
	var kCapture = Symbol('kCapture');
	var errorMonitor = Symbol('events.errorMonitor');
	function EventEmitter(options) { EventEmitter.init.call(this, options); }
	EventEmitter.prototype._events = undefined;
	EventEmitter.prototype._eventsCount = 0;
	EventEmitter.prototype._maxListeners = undefined;
	EventEmitter.defaultMaxListeners = 10;
	EventEmitter.errorMonitor = errorMonitor;
	EventEmitter.captureRejectionSymbol = Symbol.for('nodejs.rejection');
	EventEmitter.captureRejections = false;
	EventEmitter.init = function () {
		if (this._events === undefined || this._events === Object.getPrototypeOf(this)._events) {
			this._events = Object.create(null);
			this._eventsCount = 0;
		}
		this._maxListeners = this._maxListeners || undefined;
	};
	function eventsOf(emitter) {
		if (!emitter._events || emitter._events === Object.getPrototypeOf(emitter)._events) { emitter._events = Object.create(null); emitter._eventsCount = 0; }
		return emitter._events;
	}
	EventEmitter.prototype.setMaxListeners = function (n) {
		if (typeof n !== 'number' || n < 0 || n !== n) throw codeError(RangeError, 'ERR_OUT_OF_RANGE', 'The value of "n" is out of range. It must be a non-negative number. Received ' + String(n));
		this._maxListeners = n;
		return this;
	};
	EventEmitter.prototype.getMaxListeners = function () { return this._maxListeners === undefined ? EventEmitter.defaultMaxListeners : this._maxListeners; };
	EventEmitter.prototype.emit = function (type) {
		var args = Array.prototype.slice.call(arguments, 1);
		var events = this._events;
		if (type === 'error' && events && events[errorMonitor] !== undefined) this.emit.apply(this, [errorMonitor].concat(args));
		var handler = events ? events[type] : undefined;
		if (handler === undefined) {
			if (type === 'error') {
				var error = args[0];
				if (error instanceof Error) throw error;
				var wrapped = codeError(Error, 'ERR_UNHANDLED_ERROR', 'Unhandled error. (' + globalThis.__threadlineInspect(error) + ')');
				wrapped.context = error;
				throw wrapped;
			}
			return false;
		}
		if (typeof handler === 'function') { handler.apply(this, args); return true; }
		var listeners = handler.slice();
		for (var i = 0; i < listeners.length; i++) listeners[i].apply(this, args);
		return true;
	};
	function addListener(target, type, listener, prepend) {
		checkListener(listener);
		var events = eventsOf(target);
		if (events.newListener !== undefined) {
			target.emit('newListener', type, listener.listener ? listener.listener : listener);
			events = eventsOf(target);
		}
		var existing = events[type];
		if (existing === undefined) { events[type] = listener; target._eventsCount++; }
		else {
			if (typeof existing === 'function') existing = events[type] = prepend ? [listener, existing] : [existing, listener];
			else if (prepend) existing.unshift(listener);
			else existing.push(listener);
			var max = target.getMaxListeners();
			if (max > 0 && existing.length > max && !existing.warned) {
				existing.warned = true;
				if (typeof process !== 'undefined' && process.emitWarning) {
					var warning = new Error('Possible EventEmitter memory leak detected. ' + existing.length + ' ' + String(type) + ' listeners added to ' + (target.constructor && target.constructor.name || 'EventEmitter') + '. MaxListeners is ' + max + '. Use emitter.setMaxListeners() to increase limit');
					warning.name = 'MaxListenersExceededWarning';
					warning.emitter = target; warning.type = type; warning.count = existing.length;
					process.emitWarning(warning);
				}
			}
		}
		return target;
	}
	EventEmitter.prototype.addListener = function (type, listener) { return addListener(this, type, listener, false); };
	EventEmitter.prototype.on = EventEmitter.prototype.addListener;
	EventEmitter.prototype.prependListener = function (type, listener) { return addListener(this, type, listener, true); };
	function onceWrapper(target, type, listener) {
		var state = { fired: false, target: target, type: type, listener: listener };
		function wrapped() {
			if (state.fired) return undefined;
			state.target.removeListener(state.type, wrapped);
			state.fired = true;
			return state.listener.apply(state.target, arguments);
		}
		wrapped.listener = listener;
		return wrapped;
	}
	EventEmitter.prototype.once = function (type, listener) { checkListener(listener); this.on(type, onceWrapper(this, type, listener)); return this; };
	EventEmitter.prototype.prependOnceListener = function (type, listener) { checkListener(listener); this.prependListener(type, onceWrapper(this, type, listener)); return this; };
	EventEmitter.prototype.removeListener = function (type, listener) {
		checkListener(listener);
		var events = this._events;
		if (!events) return this;
		var list = events[type];
		if (list === undefined) return this;
		if (list === listener || list.listener === listener) {
			if (--this._eventsCount === 0) this._events = Object.create(null);
			else delete events[type];
			if (events.removeListener) this.emit('removeListener', type, list.listener || listener);
		} else if (typeof list !== 'function') {
			var position = -1;
			for (var i = list.length - 1; i >= 0; i--) {
				if (list[i] === listener || list[i].listener === listener) { position = i; break; }
			}
			if (position < 0) return this;
			var removed = list[position];
			list.splice(position, 1);
			if (list.length === 1) events[type] = list[0];
			if (events.removeListener !== undefined) this.emit('removeListener', type, removed.listener || listener);
		}
		return this;
	};
	EventEmitter.prototype.off = EventEmitter.prototype.removeListener;
	EventEmitter.prototype.removeAllListeners = function (type) {
		var events = this._events;
		if (!events) return this;
		if (events.removeListener === undefined) {
			if (arguments.length === 0) { this._events = Object.create(null); this._eventsCount = 0; }
			else if (events[type] !== undefined) { if (--this._eventsCount === 0) this._events = Object.create(null); else delete events[type]; }
			return this;
		}
		if (arguments.length === 0) {
			var self = this;
			Reflect.ownKeys(events).forEach(function (key) { if (key !== 'removeListener') self.removeAllListeners(key); });
			this.removeAllListeners('removeListener');
			this._events = Object.create(null);
			this._eventsCount = 0;
			return this;
		}
		var listeners = events[type];
		if (typeof listeners === 'function') this.removeListener(type, listeners);
		else if (listeners !== undefined) for (var i = listeners.length - 1; i >= 0; i--) this.removeListener(type, listeners[i]);
		return this;
	};
	function listenersOf(target, type, unwrap) {
		var events = target._events;
		if (!events || events[type] === undefined) return [];
		var list = events[type];
		if (typeof list === 'function') return unwrap ? [list.listener || list] : [list];
		return list.map(function (item) { return unwrap ? item.listener || item : item; });
	}
	EventEmitter.prototype.listeners = function (type) { return listenersOf(this, type, true); };
	EventEmitter.prototype.rawListeners = function (type) { return listenersOf(this, type, false); };
	EventEmitter.prototype.listenerCount = function (type, listener) {
		var list = listenersOf(this, type, false);
		if (listener === undefined) return list.length;
		return list.filter(function (item) { return item === listener || item.listener === listener; }).length;
	};
	EventEmitter.prototype.eventNames = function () { return this._eventsCount > 0 ? Reflect.ownKeys(this._events) : []; };
	EventEmitter.listenerCount = function (emitter, type) { return emitter.listenerCount(type); };
	EventEmitter.EventEmitter = EventEmitter;
	EventEmitter.usingDomains = false;
	EventEmitter.setMaxListeners = function (n) {
		var targets = Array.prototype.slice.call(arguments, 1);
		if (targets.length === 0) EventEmitter.defaultMaxListeners = n;
		targets.forEach(function (target) { if (typeof target.setMaxListeners === 'function') target.setMaxListeners(n); });
	};
	EventEmitter.getMaxListeners = function (target) { return typeof target.getMaxListeners === 'function' ? target.getMaxListeners() : EventEmitter.defaultMaxListeners; };
	EventEmitter.getEventListeners = function (target, type) {
		if (typeof target.listeners === 'function') return target.listeners(type);
		return target.__listeners ? (target.__listeners[type] || []).map(function (entry) { return entry.listener; }) : [];
	};
	function abortError(signal) {
		var error = new Error('The operation was aborted');
		error.name = 'AbortError';
		error.code = 'ABORT_ERR';
		if (signal && signal.reason !== undefined) error.cause = signal.reason;
		return error;
	}
	function subscribe(target, type, listener, once) {
		if (typeof target.on === 'function') {
			if (once) target.once(type, listener); else target.on(type, listener);
			return function () { target.removeListener(type, listener); };
		}
		target.addEventListener(type, listener, { once: once });
		return function () { target.removeEventListener(type, listener); };
	}
	EventEmitter.once = function (emitter, name, options) {
		var signal = options && options.signal;
		return new Promise(function (resolve, reject) {
			if (signal && signal.aborted) { reject(abortError(signal)); return; }
			var cleanups = [];
			function done() { cleanups.forEach(function (cleanup) { cleanup(); }); }
			cleanups.push(subscribe(emitter, name, function () { done(); resolve(typeof emitter.on === 'function' ? Array.prototype.slice.call(arguments) : [arguments[0]]); }, true));
			if (name !== 'error' && typeof emitter.on === 'function') cleanups.push(subscribe(emitter, 'error', function (error) { done(); reject(error); }, true));
			if (signal) {
				var onAbort = function () { done(); reject(abortError(signal)); };
				signal.addEventListener('abort', onAbort, { once: true });
				cleanups.push(function () { signal.removeEventListener('abort', onAbort); });
			}
		});
	};
	EventEmitter.on = function (emitter, event, options) {
		var signal = options && options.signal;
		if (signal && signal.aborted) throw abortError(signal);
		var queue = [];
		var waiting = [];
		var failure = null;
		var finished = false;
		var closeEvents = (options && options.close) || [];
		var cleanups = [];
		function settleNext(result, isError) {
			var next = waiting.shift();
			if (next) { if (isError) next.reject(result); else next.resolve(result); return true; }
			return false;
		}
		function stop() { finished = true; cleanups.forEach(function (cleanup) { cleanup(); }); cleanups = []; while (waiting.length) waiting.shift().resolve({ value: undefined, done: true }); }
		cleanups.push(subscribe(emitter, event, function () {
			var value = typeof emitter.on === 'function' ? Array.prototype.slice.call(arguments) : [arguments[0]];
			if (!settleNext({ value: value, done: false })) queue.push(value);
		}, false));
		if (event !== 'error' && typeof emitter.on === 'function') cleanups.push(subscribe(emitter, 'error', function (error) {
			finished = true;
			cleanups.forEach(function (cleanup) { cleanup(); });
			if (!settleNext(error, true)) failure = error;
		}, false));
		closeEvents.forEach(function (name) { cleanups.push(subscribe(emitter, name, function () { stop(); }, false)); });
		if (signal) {
			var onAbort = function () { var error = abortError(signal); cleanups.forEach(function (cleanup) { cleanup(); }); finished = true; if (!settleNext(error, true)) failure = error; };
			signal.addEventListener('abort', onAbort, { once: true });
			cleanups.push(function () { signal.removeEventListener('abort', onAbort); });
		}
		var iterator = {
			next: function () {
				if (queue.length) return Promise.resolve({ value: queue.shift(), done: false });
				if (failure) { var error = failure; failure = null; return Promise.reject(error); }
				if (finished) return Promise.resolve({ value: undefined, done: true });
				return new Promise(function (resolve, reject) { waiting.push({ resolve: resolve, reject: reject }); });
			},
			return: function () { stop(); return Promise.resolve({ value: undefined, done: true }); },
			throw: function (error) { stop(); return Promise.reject(error); }
		};
		iterator[Symbol.asyncIterator] = function () { return this; };
		return iterator;
	};
	EventEmitter.addAbortListener = function (signal, listener) {
		if (signal.aborted) { queueMicrotask(function () { listener(); }); return { dispose: function () {} }; }
		signal.addEventListener('abort', listener, { once: true });
		var disposable = { dispose: function () { signal.removeEventListener('abort', listener); } };
		if (typeof Symbol.dispose === 'symbol') disposable[Symbol.dispose] = disposable.dispose;
		return disposable;
	};
	EventEmitter.prototype[kCapture] = false;

	// ---- EventTarget, Event ----
	function Event(type, options) {
		if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "type" argument must be specified');
		this.type = String(type);
		this.bubbles = !!(options && options.bubbles);
		this.cancelable = !!(options && options.cancelable);
		this.composed = !!(options && options.composed);
		this.defaultPrevented = false;
		this.timeStamp = Date.now();
		this.isTrusted = false;
		this.target = null;
		this.currentTarget = null;
		this.eventPhase = 0;
		this._stop = false;
	}
	Event.prototype.preventDefault = function () { if (this.cancelable) this.defaultPrevented = true; };
	Event.prototype.stopPropagation = function () {};
	Event.prototype.stopImmediatePropagation = function () { this._stop = true; };
	Event.prototype.composedPath = function () { return this.currentTarget ? [this.currentTarget] : []; };
	Object.defineProperty(Event.prototype, 'returnValue', { get: function () { return !this.defaultPrevented; } });
	Object.defineProperty(Event.prototype, 'srcElement', { get: function () { return this.target; } });
	Event.NONE = 0; Event.CAPTURING_PHASE = 1; Event.AT_TARGET = 2; Event.BUBBLING_PHASE = 3;
	function CustomEvent(type, options) { Event.call(this, type, options); this.detail = options && options.detail !== undefined ? options.detail : null; }
	CustomEvent.prototype = Object.create(Event.prototype);
	CustomEvent.prototype.constructor = CustomEvent;

	function EventTarget() { Object.defineProperty(this, '__listeners', { value: Object.create(null), configurable: true }); }
	function listenersTable(target) {
		if (!Object.prototype.hasOwnProperty.call(target, '__listeners')) Object.defineProperty(target, '__listeners', { value: Object.create(null), configurable: true });
		return target.__listeners;
	}
	EventTarget.prototype.addEventListener = function (type, listener, options) {
		if (listener === null || listener === undefined) return;
		var once = !!(options && typeof options === 'object' && options.once);
		var capture = typeof options === 'boolean' ? options : !!(options && options.capture);
		var list = listenersTable(this)[type] = listenersTable(this)[type] || [];
		for (var i = 0; i < list.length; i++) if (list[i].listener === listener && list[i].capture === capture) return;
		var entry = { listener: listener, once: once, capture: capture };
		list.push(entry);
		var signal = options && typeof options === 'object' && options.signal;
		if (signal) {
			var self = this;
			if (signal.aborted) { list.pop(); return; }
			signal.addEventListener('abort', function () { self.removeEventListener(type, listener, options); }, { once: true });
		}
	};
	EventTarget.prototype.removeEventListener = function (type, listener, options) {
		var capture = typeof options === 'boolean' ? options : !!(options && options.capture);
		var table = listenersTable(this);
		var list = table[type];
		if (!list) return;
		table[type] = list.filter(function (entry) { return !(entry.listener === listener && entry.capture === capture); });
	};
	EventTarget.prototype.dispatchEvent = function (event) {
		if (!(event instanceof Event)) throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "event" argument must be an instance of Event. Received ' + typeof event);
		var list = (listenersTable(this)[event.type] || []).slice();
		event.target = this;
		event.currentTarget = this;
		event.eventPhase = 2;
		var handlerName = 'on' + event.type;
		var self = this;
		for (var i = 0; i < list.length && !event._stop; i++) {
			var entry = list[i];
			if (entry.once) this.removeEventListener(event.type, entry.listener, { capture: entry.capture });
			try {
				if (typeof entry.listener === 'function') entry.listener.call(self, event);
				else if (entry.listener && typeof entry.listener.handleEvent === 'function') entry.listener.handleEvent(event);
			} catch (error) {
				if (globalThis.__threadlineIsExit && globalThis.__threadlineIsExit(error)) throw error;
				// As in Node: a listener's exception is reported as uncaught, not to dispatchEvent's caller.
				if (typeof process !== 'undefined' && typeof process.nextTick === 'function') process.nextTick(function (failure) { throw failure; }, error);
			}
		}
		event.currentTarget = null;
		event.eventPhase = 0;
		void handlerName;
		return !event.defaultPrevented;
	};

	// ---- AbortController, AbortSignal ----
	function AbortSignal() { throw new TypeError('Illegal constructor'); }
	AbortSignal.prototype = Object.create(EventTarget.prototype);
	AbortSignal.prototype.constructor = AbortSignal;
	function newSignal() {
		var signal = Object.create(AbortSignal.prototype);
		EventTarget.call(signal);
		signal.aborted = false;
		signal.reason = undefined;
		signal.onabort = null;
		return signal;
	}
	function abortSignal(signal, reason) {
		if (signal.aborted) return;
		signal.aborted = true;
		signal.reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
		var event = new Event('abort');
		if (typeof signal.onabort === 'function') signal.onabort.call(signal, event);
		signal.dispatchEvent(event);
	}
	AbortSignal.prototype.throwIfAborted = function () { if (this.aborted) throw this.reason; };
	AbortSignal.abort = function (reason) { var signal = newSignal(); abortSignal(signal, reason); return signal; };
	AbortSignal.timeout = function (ms) {
		var signal = newSignal();
		setTimeout(function () { abortSignal(signal, new DOMException('The operation was aborted due to timeout', 'TimeoutError')); }, ms);
		return signal;
	};
	AbortSignal.any = function (signals) {
		var signal = newSignal();
		for (var i = 0; i < signals.length; i++) if (signals[i].aborted) { abortSignal(signal, signals[i].reason); return signal; }
		signals.forEach(function (source) { source.addEventListener('abort', function () { abortSignal(signal, source.reason); }, { once: true }); });
		return signal;
	};
	function AbortController() { this.signal = newSignal(); }
	AbortController.prototype.abort = function (reason) { abortSignal(this.signal, reason); };

	globalThis.EventTarget = EventTarget;
	globalThis.Event = Event;
	globalThis.CustomEvent = CustomEvent;
	globalThis.AbortController = AbortController;
	globalThis.AbortSignal = AbortSignal;
	EventEmitter.EventTarget = EventTarget;
	EventEmitter.Event = Event;
	globalThis.__threadlineEvents = { EventEmitter: EventEmitter, abortError: abortError };
})();
`;
