/**
 * JavaScript evaluated in each fresh QuickJS context before the script: the small part of Node's
 * globals that makes sense without modules, fs or network (console, process, timers, a `require`
 * that explains itself). It calls back into the host only through `__threadlineHost`:
 * `write(fd, text)` and `exit(code)`. Timers run on virtual time once the script's own code is
 * done: `setTimeout(f, 1000)` does not wait a second, it runs after everything due before it.
 *
 * Kept as plain ES2020 in a string (no template literals inside) because it runs in the VM, not
 * here. `__threadlineSetup(argv, env, cwd, filename)` is called once after evaluation.
 */
export const quickJsPrelude = String.raw`
(function () {
	'use strict';
	var host = globalThis.__threadlineHost;
	delete globalThis.__threadlineHost;
	var exitSignal = { threadlineExit: true };
	var maxDepth = 2;
	var maxArrayItems = 100;
	var breakLength = 72;

	function quote(text) {
		return "'" + text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n') + "'";
	}

	function keyText(key) {
		if (typeof key === 'symbol') return '[' + key.toString() + ']';
		return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : quote(key);
	}

	function errorText(error) {
		var header = String(error.name || 'Error') + (error.message ? ': ' + error.message : '');
		var stack = typeof error.stack === 'string' ? error.stack.replace(/\s+$/, '') : '';
		// A V8-style stack (the Node runtime's errors-prelude.ts) starts with its own header line.
		var ownHeader = stack !== '' && !/^\s+at /.test(stack);
		// Frames inside this prelude (console, require) are ours, not the script's.
		stack = stack
			.split('\n')
			.filter(function (line) {
				return line.indexOf('(threadline:') === -1;
			})
			.join('\n');
		if (ownHeader) return stack;
		return stack ? header + '\n' + stack : header;
	}

	function wrap(prefix, parts, open, close, indent) {
		if (parts.length === 0) return prefix + open + close;
		var single = prefix + open + ' ' + parts.join(', ') + ' ' + close;
		if (single.length <= breakLength && single.indexOf('\n') === -1) return single;
		var padding = '  '.repeat(indent + 1);
		return prefix + open + '\n' + padding + parts.join(',\n' + padding) + '\n' + '  '.repeat(indent) + close;
	}

	function inspect(value, depth, seen, nested) {
		if (value === null) return 'null';
		switch (typeof value) {
			case 'string':
				return nested ? quote(value) : value;
			case 'number':
				return Object.is(value, -0) ? '-0' : String(value);
			case 'bigint':
				return String(value) + 'n';
			case 'boolean':
			case 'undefined':
				return String(value);
			case 'symbol':
				return value.toString();
			case 'function': {
				var source = Function.prototype.toString.call(value);
				if (/^class[\s{]/.test(source)) return '[class ' + (value.name || '(anonymous)') + ']';
				return '[Function: ' + (value.name || '(anonymous)') + ']';
			}
		}
		if (seen.indexOf(value) !== -1) return '[Circular]';
		if (value instanceof Error) return nested ? '[' + errorText(value).split('\n')[0] + ']' : errorText(value);
		if (value instanceof Date) return isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
		if (value instanceof RegExp) return String(value);
		if (typeof Promise !== 'undefined' && value instanceof Promise) return 'Promise { <unknown> }';
		var indent = seen.length;
		if (depth > maxDepth) {
			if (Array.isArray(value)) return '[Array]';
			return '[' + ((value.constructor && value.constructor.name) || 'Object') + ']';
		}
		var inner = seen.concat([value]);
		var parts = [];
		if (Array.isArray(value)) {
			var shown = Math.min(value.length, maxArrayItems);
			for (var index = 0; index < shown; index += 1) {
				parts.push(index in value ? inspect(value[index], depth + 1, inner, true) : '<empty item>');
			}
			if (value.length > shown) parts.push('... ' + (value.length - shown) + ' more items');
			return wrap('', parts, '[', ']', indent);
		}
		if (value instanceof Map) {
			value.forEach(function (entry, key) {
				parts.push(inspect(key, depth + 1, inner, true) + ' => ' + inspect(entry, depth + 1, inner, true));
			});
			return wrap('Map(' + value.size + ') ', parts, '{', '}', indent);
		}
		if (value instanceof Set) {
			value.forEach(function (entry) {
				parts.push(inspect(entry, depth + 1, inner, true));
			});
			return wrap('Set(' + value.size + ') ', parts, '{', '}', indent);
		}
		if (ArrayBuffer.isView(value) && typeof value.length === 'number') {
			var items = Array.prototype.slice.call(value, 0, maxArrayItems).map(String);
			if (value.length > maxArrayItems) items.push('... ' + (value.length - maxArrayItems) + ' more items');
			return wrap(value.constructor.name + '(' + value.length + ') ', items, '[', ']', indent);
		}
		var keys = Object.keys(value).concat(Object.getOwnPropertySymbols(value));
		for (var position = 0; position < keys.length; position += 1) {
			var key = keys[position];
			parts.push(keyText(key) + ': ' + inspect(value[key], depth + 1, inner, true));
		}
		var prototype = Object.getPrototypeOf(value);
		var name = prototype === null ? '[Object: null prototype]' : prototype.constructor && prototype.constructor.name;
		var prefix = name && name !== 'Object' ? name + ' ' : '';
		return wrap(prefix, parts, '{', '}', indent);
	}

	function format(args) {
		var first = args[0];
		var rest = Array.prototype.slice.call(args, 1);
		var out = '';
		if (typeof first === 'string' && first.indexOf('%') !== -1) {
			out = first.replace(/%([sdifjoOc%])/g, function (match, code) {
				if (code === '%') return '%';
				if (rest.length === 0) return match;
				var argument = rest.shift();
				switch (code) {
					case 's':
						return typeof argument === 'string' ? argument : inspect(argument, 1, [], false);
					case 'd':
					case 'i': {
						var number = Number(argument);
						return String(code === 'i' ? Math.trunc(number) : number);
					}
					case 'f':
						return String(parseFloat(argument));
					case 'j':
						try {
							return JSON.stringify(argument);
						} catch (error) {
							return '[Circular]';
						}
					case 'c':
						return '';
					default:
						return inspect(argument, 0, [], true);
				}
			});
		} else if (args.length > 0) {
			out = inspect(first, 0, [], false);
		}
		for (var index = 0; index < rest.length; index += 1) {
			out += ' ' + inspect(rest[index], 0, [], false);
		}
		return out;
	}

	function writer(fd) {
		return function () {
			host.write(fd, format(arguments) + '\n');
		};
	}

	var counts = {};
	globalThis.console = {
		log: writer(1),
		info: writer(1),
		debug: writer(1),
		error: writer(2),
		warn: writer(2),
		trace: writer(2),
		dir: function (value) {
			host.write(1, inspect(value, 0, [], true) + '\n');
		},
		table: writer(1),
		assert: function (condition) {
			if (condition) return;
			var rest = Array.prototype.slice.call(arguments, 1);
			host.write(2, 'Assertion failed' + (rest.length ? ': ' + format(rest) : '') + '\n');
		},
		count: function (label) {
			var name = label === undefined ? 'default' : String(label);
			counts[name] = (counts[name] || 0) + 1;
			host.write(1, name + ': ' + counts[name] + '\n');
		},
		time: function () {},
		timeEnd: function () {},
		group: writer(1),
		groupEnd: function () {}
	};

	var timers = [];
	var nextTimerId = 1;
	var sequence = 0;
	var clock = 0;
	function addTimer(callback, delay, args, repeat) {
		if (typeof callback !== 'function') throw new TypeError('The "callback" argument must be of type function');
		var wait = Math.max(1, Number(delay) || 0);
		var timer = { id: nextTimerId++, at: clock + wait, order: sequence++, callback: callback, args: args, repeat: repeat ? wait : 0, delay: wait };
		timers.push(timer);
		return new Timeout(timer);
	}
	// Node's Timeout: ref/unref/hasRef/refresh, and a number when used as one (clearTimeout(+t)).
	function Timeout(timer) {
		this._timer = timer;
		this._ref = true;
	}
	Timeout.prototype.ref = function () { this._ref = true; return this; };
	Timeout.prototype.unref = function () { this._ref = false; return this; };
	Timeout.prototype.hasRef = function () { return this._ref; };
	Timeout.prototype.refresh = function () { this._timer.at = clock + Math.max(1, this._timer.repeat || this._timer.delay); return this; };
	Timeout.prototype.close = function () { removeTimer(this); return this; };
	Timeout.prototype[Symbol.toPrimitive] = function () { return this._timer.id; };
	function removeTimer(handle) {
		var id = handle instanceof Timeout ? handle._timer.id : Number(handle);
		timers = timers.filter(function (timer) {
			return timer.id !== id;
		});
	}
	globalThis.setTimeout = function (callback, delay) {
		return addTimer(callback, delay, Array.prototype.slice.call(arguments, 2), false);
	};
	globalThis.setInterval = function (callback, delay) {
		return addTimer(callback, delay, Array.prototype.slice.call(arguments, 2), true);
	};
	globalThis.setImmediate = function (callback) {
		return addTimer(callback, 0, Array.prototype.slice.call(arguments, 1), false);
	};
	globalThis.clearTimeout = removeTimer;
	globalThis.clearInterval = removeTimer;
	globalThis.clearImmediate = removeTimer;
	globalThis.queueMicrotask = function (callback) {
		Promise.resolve().then(callback);
	};
	// process.nextTick callbacks run once the promise jobs queued so far are done (as in an ES
	// module in Node), before any timer: the host calls this after each round of jobs.
	var ticks = [];
	globalThis.__threadlineRunTicks = function () {
		if (ticks.length === 0) return false;
		var due = ticks;
		ticks = [];
		for (var index = 0; index < due.length; index += 1) guarded(due[index].callback, due[index].args);
		return true;
	};
	// Called by the host after the microtasks: runs the next due timer; false when none is left.
	globalThis.__threadlineNextTimer = function () {
		if (timers.length === 0) return false;
		var next = timers[0];
		for (var index = 1; index < timers.length; index += 1) {
			var candidate = timers[index];
			if (candidate.at < next.at || (candidate.at === next.at && candidate.order < next.order)) next = candidate;
		}
		clock = next.at;
		if (next.repeat) {
			next.at = clock + next.repeat;
			next.order = sequence++;
		} else {
			removeTimer(next.id);
		}
		guarded(next.callback, next.args);
		return true;
	};
	// An exception thrown by a timer or tick callback is uncaught: the Node runtime may handle it
	// (process 'uncaughtException' listeners, the test runner failing the running test);
	// otherwise it ends the script, as in Node.
	function guarded(callback, args) {
		try {
			callback.apply(undefined, args);
		} catch (error) {
			if (error === exitSignal) throw error;
			var handler = globalThis.__threadlineUncaught;
			if (typeof handler === 'function' && handler(error) === true) return;
			throw error;
		}
	}

	var unavailable =
		' is not available: this node runs small scripts on QuickJS, without modules, fs or network. ' +
		'Pass input as arguments (process.argv) and print results with console.log; see node --help.';

	globalThis.require = function (name) {
		throw new Error("require('" + String(name) + "')" + unavailable);
	};
	globalThis.require.resolve = globalThis.require;

	globalThis.__threadlineSetup = function (argv, env, cwd, filename) {
		var process = {
			argv: argv,
			argv0: 'node',
			execArgv: [],
			env: env,
			platform: 'linux',
			arch: 'wasm32',
			pid: 1,
			version: 'v0.0.0-quickjs',
			versions: { quickjs: '2024-01-13', node: '0.0.0' },
			release: { name: 'quickjs' },
			exitCode: undefined,
			cwd: function () {
				return cwd;
			},
			exit: function (code) {
				var chosen = code === undefined ? process.exitCode : code;
				var final = chosen === undefined ? 0 : Number(chosen) | 0;
				// 'exit' listeners run before the process ends, and may still print.
				if (typeof globalThis.__threadlineEmitExit === 'function') {
					var emit = globalThis.__threadlineEmitExit;
					globalThis.__threadlineEmitExit = undefined;
					process.exitCode = final;
					emit(final);
				}
				host.exit(final);
				throw exitSignal;
			},
			nextTick: function (callback) {
				ticks.push({ callback: callback, args: Array.prototype.slice.call(arguments, 1) });
			},
			hrtime: Object.assign(
				function () {
					var now = Date.now();
					return [Math.floor(now / 1000), (now % 1000) * 1e6];
				},
				{
					bigint: function () {
						return BigInt(Date.now()) * 1000000n;
					}
				}
			),
			memoryUsage: function () {
				return { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
			},
			uptime: function () {
				return 0;
			},
			on: function () {
				return process;
			},
			stdout: {
				isTTY: false,
				write: function (text) {
					host.write(1, String(text));
					return true;
				}
			},
			stderr: {
				isTTY: false,
				write: function (text) {
					host.write(2, String(text));
					return true;
				}
			}
		};
		globalThis.process = process;
		globalThis.global = globalThis;
		globalThis.module = { exports: {}, id: '.', filename: filename };
		globalThis.exports = globalThis.module.exports;
		globalThis.__filename = filename;
		globalThis.__dirname = filename.indexOf('/') === -1 ? cwd : filename.slice(0, filename.lastIndexOf('/')) || '/';
		delete globalThis.__threadlineSetup;
	};

	// For the Node runtime's util.inspect/format (node-runtime/runtime-prelude.ts).
	globalThis.__threadlineInspect = function (value, nested) {
		return inspect(value, 0, [], nested !== false);
	};
	globalThis.__threadlineFormat = function (args) {
		return format(args);
	};
	globalThis.__threadlineErrorText = errorText;

	globalThis.__threadlineIsExit = function (value) {
		return value === exitSignal;
	};
	globalThis.__threadlineFormatError = function (value) {
		if (value instanceof Error) return errorText(value);
		return 'Uncaught ' + inspect(value, 0, [], true);
	};
})();
`;
