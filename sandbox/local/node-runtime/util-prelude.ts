/**
 * The rest of `node:util` for the offline runtime, evaluated after runtime-prelude.ts (which has
 * format, inspect, promisify, inherits, deprecate, isDeepStrictEqual): `util.types` (every
 * predicate Node has that can be answered in JavaScript; `isProxy`/`isExternal` are always
 * false), `util/types`, debuglog (NODE_DEBUG), callbackify, inspect.custom and promisify.custom,
 * MIMEType/MIMEParams, stripVTControlCharacters, toUSVString, aborted, getSystemErrorName,
 * parseArgs (the common part), and the legacy is* helpers. Plain ES2020 in a string.
 */
export const utilPrelude = String.raw`
(function () {
	'use strict';
	var util = globalThis.__threadlineBuiltin('util');
	function codeError(Kind, code, message) { var error = new Kind(message); error.code = code; return error; }
	var toTag = function (value) { return Object.prototype.toString.call(value); };
	var typedArrayProto = Object.getPrototypeOf(Uint8Array.prototype);
	var typedTag = Object.getOwnPropertyDescriptor(typedArrayProto, Symbol.toStringTag).get;
	function typedName(value) { return ArrayBuffer.isView(value) && !(value instanceof DataView) ? typedTag.call(value) : undefined; }
	var AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
	var GeneratorFunction = Object.getPrototypeOf(function* () {}).constructor;
	var AsyncGeneratorFunction = Object.getPrototypeOf(async function* () {}).constructor;
	var mapIteratorProto = Object.getPrototypeOf(new Map()[Symbol.iterator]());
	var setIteratorProto = Object.getPrototypeOf(new Set()[Symbol.iterator]());
	var generatorProto = Object.getPrototypeOf(function* () {}).prototype;
	function boxed(Kind) { return function (value) { if (typeof value !== 'object' || value === null) return false; try { Kind.prototype.valueOf.call(value); return true; } catch (error) { return false; } }; }
	var types = {
		isPromise: function (value) { return value instanceof Promise; },
		isDate: function (value) { return toTag(value) === '[object Date]' && value instanceof Date; },
		isRegExp: function (value) { return value instanceof RegExp; },
		isMap: function (value) { return value instanceof Map; },
		isSet: function (value) { return value instanceof Set; },
		isWeakMap: function (value) { return value instanceof WeakMap; },
		isWeakSet: function (value) { return value instanceof WeakSet; },
		isMapIterator: function (value) { return !!value && Object.getPrototypeOf(value) === mapIteratorProto; },
		isSetIterator: function (value) { return !!value && Object.getPrototypeOf(value) === setIteratorProto; },
		isGeneratorObject: function (value) { return !!value && typeof value === 'object' && Object.getPrototypeOf(Object.getPrototypeOf(value)) === generatorProto; },
		isAsyncFunction: function (value) { return value instanceof AsyncFunction || value instanceof AsyncGeneratorFunction; },
		isGeneratorFunction: function (value) { return value instanceof GeneratorFunction || value instanceof AsyncGeneratorFunction; },
		isArrayBuffer: function (value) { return value instanceof ArrayBuffer; },
		isSharedArrayBuffer: function (value) { return typeof SharedArrayBuffer === 'function' && value instanceof SharedArrayBuffer; },
		isAnyArrayBuffer: function (value) { return value instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && value instanceof SharedArrayBuffer); },
		isArrayBufferView: function (value) { return ArrayBuffer.isView(value); },
		isDataView: function (value) { return value instanceof DataView; },
		isTypedArray: function (value) { return typedName(value) !== undefined; },
		isNativeError: function (value) { return value instanceof Error; },
		isNumberObject: boxed(Number),
		isStringObject: boxed(String),
		isBooleanObject: boxed(Boolean),
		isBigIntObject: typeof BigInt === 'function' ? boxed(BigInt) : function () { return false; },
		isSymbolObject: boxed(Symbol),
		isBoxedPrimitive: function (value) { return types.isNumberObject(value) || types.isStringObject(value) || types.isBooleanObject(value) || types.isBigIntObject(value) || types.isSymbolObject(value); },
		isArgumentsObject: function (value) { return toTag(value) === '[object Arguments]'; },
		isModuleNamespaceObject: function (value) { return !!value && typeof value === 'object' && value[Symbol.toStringTag] === 'Module'; },
		isProxy: function () { return false; },
		isExternal: function () { return false; },
		isWeakRef: function (value) { return typeof WeakRef === 'function' && value instanceof WeakRef; },
		isKeyObject: function () { return false; },
		isCryptoKey: function (value) { return typeof CryptoKey === 'function' && value instanceof CryptoKey; }
	};
	['Uint8Array', 'Uint8ClampedArray', 'Uint16Array', 'Uint32Array', 'Int8Array', 'Int16Array', 'Int32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'].forEach(function (name) {
		types['is' + name] = function (value) { return typedName(value) === name; };
	});
	util.types = types;
	globalThis.__threadlineDefineBuiltin('util/types', function () { return types; });

	var customInspect = Symbol.for('nodejs.util.inspect.custom');
	var baseInspect = util.inspect;
	util.inspect = function (value, options) {
		if (value && (typeof value === 'object' || typeof value === 'function') && typeof value[customInspect] === 'function' && value[customInspect] !== util.inspect) {
			var custom = value[customInspect](options && options.depth !== undefined ? options.depth : 2, Object.assign({ stylize: function (text) { return text; } }, options), util.inspect);
			return typeof custom === 'string' ? custom : util.inspect(custom, options);
		}
		if (value instanceof Buffer) return value.inspect();
		return baseInspect(value, options);
	};
	util.inspect.custom = customInspect;
	util.inspect.defaultOptions = { depth: 2, colors: false, showHidden: false, breakLength: 80, compact: 3, sorted: false };
	util.inspect.colors = {};
	util.inspect.styles = {};
	util.promisify.custom = Symbol.for('nodejs.util.promisify.custom');
	var basePromisify = util.promisify;
	util.promisify = function (fn) {
		if (typeof fn !== 'function') throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "original" argument must be of type function');
		if (typeof fn[util.promisify.custom] === 'function') return fn[util.promisify.custom];
		return basePromisify(fn);
	};
	util.promisify.custom = Symbol.for('nodejs.util.promisify.custom');
	util.callbackify = function (fn) {
		if (typeof fn !== 'function') throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "original" argument must be of type function');
		return function () {
			var args = Array.prototype.slice.call(arguments);
			var callback = args.pop();
			if (typeof callback !== 'function') throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The last argument must be of type function');
			var self = this;
			Promise.resolve().then(function () { return fn.apply(self, args); }).then(function (value) { process.nextTick(callback, null, value); }, function (reason) {
				if (!reason) { var wrapped = codeError(Error, 'ERR_FALSY_VALUE_REJECTION', 'Promise was rejected with falsy value'); wrapped.reason = reason; reason = wrapped; }
				process.nextTick(callback, reason);
			});
		};
	};
	var debugEnabled = String((process.env && process.env.NODE_DEBUG) || '').split(/[\s,]+/).filter(Boolean).map(function (name) { return new RegExp('^' + name.replace(/[|\\{}()[\]^$+?.]/g, '\\$&').replace(/\*/g, '.*') + '$', 'i'); });
	util.debuglog = util.debug = function (section, callback) {
		var enabled = debugEnabled.some(function (pattern) { return pattern.test(section); });
		var logger = function () {
			if (!enabled) return;
			process.stderr.write(String(section).toUpperCase() + ' ' + process.pid + ': ' + util.format.apply(undefined, arguments) + '\n');
		};
		Object.defineProperty(logger, 'enabled', { get: function () { return enabled; } });
		if (typeof callback === 'function') callback(logger);
		return logger;
	};
	util.stripVTControlCharacters = function (text) { return String(text).replace(/[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g, ''); };
	util.toUSVString = function (text) { return String(text).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?:[^\ud800-\udbff]|^)[\udc00-\udfff]/g, function (match) { return match.length === 2 ? match[0] + '\ufffd' : '\ufffd'; }); };
	util.styleText = function (format, text) { return String(text); };
	util.getSystemErrorName = function (code) { var names = { '-2': 'ENOENT', '-13': 'EACCES', '-17': 'EEXIST', '-20': 'ENOTDIR', '-21': 'EISDIR', '-22': 'EINVAL', '-39': 'ENOTEMPTY' }; return names[String(code)] || 'Unknown system error ' + code; };
	util.aborted = function (signal, resource) {
		void resource;
		return new Promise(function (resolve) { if (signal.aborted) resolve(); else signal.addEventListener('abort', function () { resolve(); }, { once: true }); });
	};
	util.isArray = Array.isArray;
	util.isBoolean = function (value) { return typeof value === 'boolean'; };
	util.isNull = function (value) { return value === null; };
	util.isNullOrUndefined = function (value) { return value === null || value === undefined; };
	util.isNumber = function (value) { return typeof value === 'number'; };
	util.isString = function (value) { return typeof value === 'string'; };
	util.isSymbol = function (value) { return typeof value === 'symbol'; };
	util.isUndefined = function (value) { return value === undefined; };
	util.isRegExp = types.isRegExp;
	util.isObject = function (value) { return value !== null && typeof value === 'object'; };
	util.isDate = types.isDate;
	util.isError = function (value) { return value instanceof Error; };
	util.isFunction = function (value) { return typeof value === 'function'; };
	util.isPrimitive = function (value) { return value === null || (typeof value !== 'object' && typeof value !== 'function'); };
	util.formatWithOptions = function (options) { return util.format.apply(undefined, Array.prototype.slice.call(arguments, 1)); };

	// ---- MIMEType ----
	var tokenPattern = /^[!#$%&'*+\-.^_\x60|~A-Za-z0-9]+$/;
	function MIMEParams() { this._map = new Map(); }
	MIMEParams.prototype.get = function (name) { var value = this._map.get(String(name).toLowerCase()); return value === undefined ? null : value; };
	MIMEParams.prototype.has = function (name) { return this._map.has(String(name).toLowerCase()); };
	MIMEParams.prototype.set = function (name, value) {
		name = String(name);
		if (!tokenPattern.test(name)) throw codeError(TypeError, 'ERR_INVALID_MIME_SYNTAX', 'The MIME syntax for a parameter name in "' + name + '" is invalid');
		this._map.set(name.toLowerCase(), String(value));
	};
	MIMEParams.prototype.delete = function (name) { this._map.delete(String(name).toLowerCase()); };
	MIMEParams.prototype.keys = function () { return this._map.keys(); };
	MIMEParams.prototype.values = function () { return this._map.values(); };
	MIMEParams.prototype.entries = function () { return this._map.entries(); };
	MIMEParams.prototype[Symbol.iterator] = MIMEParams.prototype.entries;
	MIMEParams.prototype.toString = function () {
		var parts = [];
		this._map.forEach(function (value, key) { parts.push(key + '=' + (value === '' || !tokenPattern.test(value) ? '"' + value.replace(/(["\\])/g, '\\$1') + '"' : value)); });
		return parts.join(';');
	};
	MIMEParams.prototype.toJSON = MIMEParams.prototype.toString;
	function MIMEType(input) {
		var text = String(input).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
		var slash = text.indexOf('/');
		var type = slash === -1 ? '' : text.slice(0, slash);
		if (!type || !tokenPattern.test(type)) throw codeError(TypeError, 'ERR_INVALID_MIME_SYNTAX', 'The MIME syntax for a type in "' + input + '" is invalid');
		var rest = text.slice(slash + 1);
		var semicolon = rest.indexOf(';');
		var subtype = (semicolon === -1 ? rest : rest.slice(0, semicolon)).replace(/[\t\n\r ]+$/, '');
		if (!subtype || !tokenPattern.test(subtype)) throw codeError(TypeError, 'ERR_INVALID_MIME_SYNTAX', 'The MIME syntax for a subtype in "' + input + '" is invalid');
		this._type = type.toLowerCase();
		this._subtype = subtype.toLowerCase();
		this._params = new MIMEParams();
		var position = semicolon === -1 ? rest.length : semicolon;
		while (position < rest.length) {
			position++;
			while (/[\t\n\r ]/.test(rest[position] || '')) position++;
			var nameEnd = position;
			while (nameEnd < rest.length && rest[nameEnd] !== ';' && rest[nameEnd] !== '=') nameEnd++;
			var name = rest.slice(position, nameEnd).toLowerCase();
			position = nameEnd;
			if (rest[position] === ';') continue;
			if (position >= rest.length) break;
			position++;
			var value = '';
			if (rest[position] === '"') {
				position++;
				while (position < rest.length && rest[position] !== '"') {
					if (rest[position] === '\\' && position + 1 < rest.length) position++;
					value += rest[position++];
				}
				while (position < rest.length && rest[position] !== ';') position++;
			} else {
				var valueEnd = rest.indexOf(';', position);
				if (valueEnd === -1) valueEnd = rest.length;
				value = rest.slice(position, valueEnd).replace(/[\t\n\r ]+$/, '');
				position = valueEnd;
				if (value === '') continue;
			}
			if (name && tokenPattern.test(name) && !this._params.has(name)) this._params._map.set(name, value);
		}
	}
	Object.defineProperty(MIMEType.prototype, 'type', { get: function () { return this._type; }, set: function (value) { if (!tokenPattern.test(String(value))) throw codeError(TypeError, 'ERR_INVALID_MIME_SYNTAX', 'The MIME syntax for a type in "' + value + '" is invalid'); this._type = String(value).toLowerCase(); } });
	Object.defineProperty(MIMEType.prototype, 'subtype', { get: function () { return this._subtype; }, set: function (value) { if (!tokenPattern.test(String(value))) throw codeError(TypeError, 'ERR_INVALID_MIME_SYNTAX', 'The MIME syntax for a subtype in "' + value + '" is invalid'); this._subtype = String(value).toLowerCase(); } });
	Object.defineProperty(MIMEType.prototype, 'essence', { get: function () { return this._type + '/' + this._subtype; } });
	Object.defineProperty(MIMEType.prototype, 'params', { get: function () { return this._params; } });
	MIMEType.prototype.toString = function () { var params = this._params.toString(); return this.essence + (params ? ';' + params : ''); };
	MIMEType.prototype.toJSON = MIMEType.prototype.toString;
	util.MIMEType = MIMEType;
	util.MIMEParams = MIMEParams;

	util.parseArgs = function (config) {
		config = config || {};
		var args = config.args || process.argv.slice(2);
		var optionsConfig = config.options || {};
		var values = {};
		var positionals = [];
		var shortNames = {};
		Object.keys(optionsConfig).forEach(function (name) { if (optionsConfig[name].short) shortNames[optionsConfig[name].short] = name; if (optionsConfig[name].default !== undefined) values[name] = optionsConfig[name].default; });
		function store(name, value) {
			var option = optionsConfig[name];
			if (!option && config.strict !== false) throw codeError(TypeError, 'ERR_PARSE_ARGS_UNKNOWN_OPTION', "Unknown option '--" + name + "'");
			if (option && option.multiple) (values[name] = Array.isArray(values[name]) && values[name] !== option.default ? values[name] : []).push(value);
			else values[name] = value;
		}
		for (var i = 0; i < args.length; i++) {
			var arg = args[i];
			if (arg === '--') { positionals = positionals.concat(args.slice(i + 1)); break; }
			if (arg.indexOf('--') === 0) {
				var eq = arg.indexOf('=');
				var name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
				var option = optionsConfig[name];
				if (option && option.type === 'string') store(name, eq === -1 ? args[++i] : arg.slice(eq + 1));
				else store(name, eq === -1 ? true : arg.slice(eq + 1));
			} else if (arg[0] === '-' && arg.length > 1) {
				for (var j = 1; j < arg.length; j++) {
					var long = shortNames[arg[j]] || arg[j];
					var shortOption = optionsConfig[long];
					if (shortOption && shortOption.type === 'string') { store(long, j + 1 < arg.length ? arg.slice(j + 1) : args[++i]); break; }
					store(long, true);
				}
			} else {
				if (config.allowPositionals === false || (config.strict !== false && config.allowPositionals !== true)) throw codeError(TypeError, 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL', "Unexpected argument '" + arg + "'. This command does not take positional arguments");
				positionals.push(arg);
			}
		}
		return { values: values, positionals: positionals };
	};
})();
`;
