/**
 * V8's error stacks for the offline runtime, evaluated first (before runtime-prelude.ts).
 * QuickJS writes `stack` as the frames alone; Node code reads it as V8 writes it: the error's
 * `Name: message` line, then `    at …` frames. The Error constructors are wrapped (same
 * prototypes, so `instanceof` and `class X extends Error` keep working) to give each error a
 * lazy `stack` computed on first read, as V8 does, and `Error.captureStackTrace(object, fn)` /
 * `Error.stackTraceLimit` exist. Errors QuickJS itself throws (a TypeError from `undefined.x`)
 * keep QuickJS's frames-only stack. Plain ES2020 in a string.
 */
export const errorsPrelude = String.raw`
(function () {
	'use strict';
	function framesOf(stack, skip) {
		var lines = String(stack || '').split('\n').filter(function (line) { return /^\s+at /.test(line); });
		// The wrapper's own frames (and Reflect.construct's) are not the caller's.
		while (lines.length > 0 && (lines[0].indexOf('threadline:errors.js') !== -1 || /^\s+at construct \(native\)/.test(lines[0]))) lines.shift();
		return lines.slice(skip).slice(0, Math.max(0, Number(WrappedError.stackTraceLimit) || 0));
	}
	function header(error) {
		var name, message;
		try { name = error.name; message = error.message; } catch (ignored) { return 'Error'; }
		name = name === undefined ? 'Error' : String(name);
		message = message === undefined ? '' : String(message);
		if (!name) return message;
		return message ? name + ': ' + message : name;
	}
	function lazyStack(target, frames) {
		var value;
		var computed = false;
		Object.defineProperty(target, 'stack', {
			configurable: true,
			enumerable: false,
			get: function () {
				if (!computed) {
					computed = true;
					value = header(this) + (frames.length ? '\n' + frames.join('\n') : '');
				}
				return value;
			},
			set: function (next) {
				Object.defineProperty(this, 'stack', { value: next, writable: true, configurable: true, enumerable: false });
			}
		});
	}
	var NativeError = Error;
	function WrappedError(message, options) {
		var error = Reflect.construct(NativeError, arguments, new.target || WrappedError);
		lazyStack(error, framesOf(error.stack, 0));
		return error;
	}
	WrappedError.prototype = NativeError.prototype;
	Object.defineProperty(NativeError.prototype, 'constructor', { value: WrappedError, writable: true, configurable: true, enumerable: false });
	Object.setPrototypeOf(WrappedError, Object.getPrototypeOf(NativeError));
	Object.defineProperty(WrappedError, 'name', { value: 'Error' });
	WrappedError.stackTraceLimit = 10;
	WrappedError.captureStackTrace = function (target, constructorOpt) {
		if (target === null || (typeof target !== 'object' && typeof target !== 'function')) {
			var error = new TypeError('The "targetObject" argument must be of type object');
			error.code = 'ERR_INVALID_ARG_TYPE';
			throw error;
		}
		var frames = framesOf(new NativeError().stack, 1);
		if (typeof constructorOpt === 'function' && constructorOpt.name) {
			for (var index = 0; index < frames.length; index += 1) {
				if (frames[index].indexOf('at ' + constructorOpt.name + ' ') !== -1) {
					frames = frames.slice(index + 1);
					break;
				}
			}
		}
		lazyStack(target, frames);
	};
	globalThis.Error = WrappedError;

	['TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'EvalError', 'URIError', 'AggregateError'].forEach(function (name) {
		var Native = globalThis[name];
		if (typeof Native !== 'function') return;
		var Wrapped = function () {
			var error = Reflect.construct(Native, arguments, new.target || Wrapped);
			lazyStack(error, framesOf(error.stack, 0));
			return error;
		};
		Wrapped.prototype = Native.prototype;
		Object.defineProperty(Native.prototype, 'constructor', { value: Wrapped, writable: true, configurable: true, enumerable: false });
		Object.setPrototypeOf(Wrapped, WrappedError);
		Object.defineProperty(Wrapped, 'name', { value: name });
		globalThis[name] = Wrapped;
	});
	// Engine-made errors are instances of the same prototypes; Symbol.hasInstance is unchanged.
})();
`;
