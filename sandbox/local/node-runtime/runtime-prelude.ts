/**
 * The Node-compatible part of the offline runtime, evaluated in each QuickJS context after the
 * console/process/timers prelude (../quickjs-prelude.ts): web globals QuickJS lacks
 * (TextEncoder/Decoder, atob/btoa, URL, URLSearchParams, structuredClone, crypto, Buffer), the
 * CommonJS module system and the built-in modules path, url, fs, fs/promises, events, util, os,
 * crypto, buffer, timers/promises and process. assert and test are in test-prelude.ts.
 *
 * It reaches the host only through `__threadlineNodeHost` (see run-node-program.ts): resolve,
 * loadCommonJs, compile, fs, digest, hmac, random, url. Bytes cross as latin1 strings, structured
 * results as JSON. Plain ES2020 in a string (no template literals: this file is one).
 */
export const nodeRuntimePrelude = String.raw`
(function () {
	'use strict';
	var host = globalThis.__threadlineNodeHost;
	delete globalThis.__threadlineNodeHost;
	var inspectValue = globalThis.__threadlineInspect;
	var formatArguments = globalThis.__threadlineFormat;

	function codeError(Kind, code, message, extra) {
		var error = new Kind(message);
		error.code = code;
		if (extra) for (var key in extra) error[key] = extra[key];
		return error;
	}

	// ---- bytes ----
	function utf8Encode(text) {
		text = String(text);
		var out = [];
		for (var i = 0; i < text.length; i++) {
			var code = text.charCodeAt(i);
			if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
				var next = text.charCodeAt(i + 1);
				if (next >= 0xdc00 && next <= 0xdfff) {
					code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
					i++;
				} else code = 0xfffd;
			} else if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
			if (code < 0x80) out.push(code);
			else if (code < 0x800) out.push(0xc0 | (code >> 6), 0x80 | (code & 63));
			else if (code < 0x10000) out.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
			else out.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
		}
		return new Uint8Array(out);
	}
	function utf8Decode(bytes) {
		var out = '';
		var chunk = [];
		for (var i = 0; i < bytes.length; ) {
			var byte = bytes[i];
			var code = 0xfffd;
			var size = 1;
			if (byte < 0x80) code = byte;
			else if (byte >= 0xc2 && byte < 0xe0 && i + 1 < bytes.length && (bytes[i + 1] & 0xc0) === 0x80) {
				code = ((byte & 31) << 6) | (bytes[i + 1] & 63);
				size = 2;
			} else if (byte >= 0xe0 && byte < 0xf0 && i + 2 < bytes.length && (bytes[i + 1] & 0xc0) === 0x80 && (bytes[i + 2] & 0xc0) === 0x80) {
				code = ((byte & 15) << 12) | ((bytes[i + 1] & 63) << 6) | (bytes[i + 2] & 63);
				size = 3;
				if (code < 0x800 || (code >= 0xd800 && code <= 0xdfff)) { code = 0xfffd; size = 1; }
			} else if (byte >= 0xf0 && byte < 0xf5 && i + 3 < bytes.length && (bytes[i + 1] & 0xc0) === 0x80 && (bytes[i + 2] & 0xc0) === 0x80 && (bytes[i + 3] & 0xc0) === 0x80) {
				code = ((byte & 7) << 18) | ((bytes[i + 1] & 63) << 12) | ((bytes[i + 2] & 63) << 6) | (bytes[i + 3] & 63);
				size = 4;
				if (code < 0x10000 || code > 0x10ffff) { code = 0xfffd; size = 1; }
			}
			i += size;
			if (code >= 0x10000) {
				code -= 0x10000;
				chunk.push(0xd800 + (code >> 10), 0xdc00 + (code & 1023));
			} else chunk.push(code);
			if (chunk.length > 8000) { out += String.fromCharCode.apply(null, chunk); chunk = []; }
		}
		return out + String.fromCharCode.apply(null, chunk);
	}
	function toLatin1(bytes) {
		var out = '';
		for (var i = 0; i < bytes.length; i += 8192) out += String.fromCharCode.apply(null, Array.prototype.slice.call(bytes.subarray(i, i + 8192)));
		return out;
	}
	function fromLatin1(text) {
		var bytes = new Uint8Array(text.length);
		for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 255;
		return bytes;
	}
	// Raw bytes cross to and from the host as hex: QuickJS strings end at a NUL byte on the way.
	function toHex(bytes) {
		var out = '';
		for (var i = 0; i < bytes.length; i++) out += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
		return out;
	}
	function fromHex(text) {
		var out = new Uint8Array(text.length >> 1);
		for (var i = 0; i < out.length; i++) out[i] = parseInt(text.substr(i * 2, 2), 16);
		return out;
	}
	function asBytes(value, name) {
		if (value instanceof Uint8Array) return value;
		if (value instanceof ArrayBuffer) return new Uint8Array(value);
		if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
		if (typeof value === 'string') return utf8Encode(value);
		throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "' + (name || 'data') + '" argument must be of type string or an instance of Buffer, TypedArray, DataView or ArrayBuffer');
	}

	function TextEncoder() {}
	TextEncoder.prototype.encoding = 'utf-8';
	TextEncoder.prototype.encode = function (text) { return utf8Encode(text === undefined ? '' : text); };
	function TextDecoder(label) {
		var name = String(label || 'utf-8').toLowerCase();
		var known = { 'utf-8': 'utf-8', utf8: 'utf-8', 'unicode-1-1-utf-8': 'utf-8', 'utf-16le': 'utf-16le', 'utf-16': 'utf-16le', latin1: 'windows-1252', 'iso-8859-1': 'windows-1252', 'windows-1252': 'windows-1252', ascii: 'windows-1252', 'us-ascii': 'windows-1252' };
		if (!known[name]) { var unsupported = new RangeError('The "' + label + '" encoding is not supported'); unsupported.code = 'ERR_ENCODING_NOT_SUPPORTED'; throw unsupported; }
		this.encoding = known[name];
		this.fatal = !!(arguments[1] && arguments[1].fatal);
		this.ignoreBOM = !!(arguments[1] && arguments[1].ignoreBOM);
	}
	TextDecoder.prototype.decode = function (input) {
		if (input === undefined) return '';
		var bytes = asBytes(input, 'input');
		if (this.encoding === 'utf-16le') return decodeBytes(bytes, 'utf16le');
		if (this.encoding === 'windows-1252') return toLatin1(bytes);
		var text = utf8Decode(bytes);
		if (this.fatal && text.indexOf('\ufffd') !== -1 && !/\xef\xbf\xbd/.test(toLatin1(bytes))) {
			var invalid = new TypeError('The encoded data was not valid for encoding utf-8');
			invalid.code = 'ERR_ENCODING_INVALID_ENCODED_DATA';
			throw invalid;
		}
		if (!this.ignoreBOM && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
		return text;
	};
	globalThis.TextEncoder = TextEncoder;
	globalThis.TextDecoder = TextDecoder;

	var base64Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
	function base64Encode(bytes) {
		var out = '';
		for (var i = 0; i < bytes.length; i += 3) {
			var a = bytes[i], b = bytes[i + 1], c = bytes[i + 2];
			out += base64Alphabet[a >> 2] + base64Alphabet[((a & 3) << 4) | ((b || 0) >> 4)];
			out += i + 1 < bytes.length ? base64Alphabet[((b & 15) << 2) | ((c || 0) >> 6)] : '=';
			out += i + 2 < bytes.length ? base64Alphabet[c & 63] : '=';
		}
		return out;
	}
	function base64Decode(text, strict) {
		var clean = String(text).replace(/[\s=]+/g, '').replace(/-/g, '+').replace(/_/g, '/');
		if (strict && (/[^A-Za-z0-9+/]/.test(clean) || clean.length % 4 === 1)) {
			var error = new Error('The string to be decoded is not correctly encoded.');
			error.name = 'InvalidCharacterError';
			throw error;
		}
		var out = [];
		var buffer = 0, bits = 0;
		for (var i = 0; i < clean.length; i++) {
			var value = base64Alphabet.indexOf(clean[i]);
			if (value < 0) continue;
			buffer = (buffer << 6) | value;
			bits += 6;
			if (bits >= 8) { bits -= 8; out.push((buffer >> bits) & 255); }
		}
		return new Uint8Array(out);
	}
	globalThis.btoa = function (text) {
		text = String(text);
		for (var i = 0; i < text.length; i++) if (text.charCodeAt(i) > 255) {
			var error = new Error('Invalid character');
			error.name = 'InvalidCharacterError';
			throw error;
		}
		return base64Encode(fromLatin1(text));
	};
	globalThis.atob = function (text) { return toLatin1(base64Decode(text, true)); };

	// ---- Buffer (the common part) ----
	function Buffer() { throw new TypeError('Use Buffer.from, Buffer.alloc or Buffer.concat'); }
	function makeBuffer(bytes) {
		var buffer = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
		Object.setPrototypeOf(buffer, Buffer.prototype);
		return buffer;
	}
	Buffer.prototype = Object.create(Uint8Array.prototype);
	Buffer.prototype.constructor = Buffer;
	Object.setPrototypeOf(Buffer, Uint8Array);
	// Typed-array methods (subarray, map, filter) build their result with the species: a plain
	// Uint8Array, wrapped again where a Buffer is due.
	Object.defineProperty(Buffer, Symbol.species, { get: function () { return Uint8Array; } });
	function encodeString(text, encoding) {
		switch (String(encoding || 'utf8').toLowerCase()) {
			case 'utf8': case 'utf-8': return utf8Encode(text);
			case 'hex': {
				var out = new Uint8Array(Math.floor(text.length / 2));
				for (var i = 0; i < out.length; i++) {
					var byte = parseInt(text.substr(i * 2, 2), 16);
					if (isNaN(byte)) return out.subarray(0, i);
					out[i] = byte;
				}
				return out;
			}
			case 'base64': case 'base64url': return base64Decode(text, false);
			case 'latin1': case 'binary': case 'ascii': return fromLatin1(text);
			case 'utf16le': case 'utf-16le': case 'ucs2': case 'ucs-2': {
				var wide = new Uint8Array(text.length * 2);
				for (var w = 0; w < text.length; w++) { var unit = text.charCodeAt(w); wide[w * 2] = unit & 255; wide[w * 2 + 1] = unit >> 8; }
				return wide;
			}
			default: throw codeError(TypeError, 'ERR_UNKNOWN_ENCODING', 'Unknown encoding: ' + encoding);
		}
	}
	function decodeBytes(bytes, encoding) {
		switch (String(encoding || 'utf8').toLowerCase()) {
			case 'utf8': case 'utf-8': return utf8Decode(bytes);
			case 'hex': return toHex(bytes);
			case 'base64': return base64Encode(bytes);
			case 'base64url': return base64Encode(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
			case 'latin1': case 'binary': return toLatin1(bytes);
			case 'ascii': return toLatin1(Uint8Array.from(bytes, function (byte) { return byte & 127; }));
			case 'utf16le': case 'utf-16le': case 'ucs2': case 'ucs-2': {
				var units = [];
				var text = '';
				for (var u = 0; u + 1 < bytes.length; u += 2) {
					units.push(bytes[u] | (bytes[u + 1] << 8));
					if (units.length > 8000) { text += String.fromCharCode.apply(null, units); units = []; }
				}
				return text + String.fromCharCode.apply(null, units);
			}
			default: throw codeError(TypeError, 'ERR_UNKNOWN_ENCODING', 'Unknown encoding: ' + encoding);
		}
	}
	Buffer.from = function (value, encodingOrOffset, length) {
		if (typeof value === 'string') return makeBuffer(encodeString(value, encodingOrOffset));
		if (value instanceof ArrayBuffer) return makeBuffer(new Uint8Array(value, encodingOrOffset || 0, length === undefined ? value.byteLength - (encodingOrOffset || 0) : length));
		if (ArrayBuffer.isView(value)) return makeBuffer(new Uint8Array(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)));
		if (Array.isArray(value)) return makeBuffer(new Uint8Array(value));
		if (value && value.type === 'Buffer' && Array.isArray(value.data)) return makeBuffer(new Uint8Array(value.data));
		throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The first argument must be of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object.');
	};
	Buffer.alloc = function (size, fill) { var b = makeBuffer(new Uint8Array(size)); if (fill !== undefined) b.fill(typeof fill === 'string' ? fill.charCodeAt(0) : fill); return b; };
	Buffer.allocUnsafe = Buffer.alloc;
	Buffer.isBuffer = function (value) { return value instanceof Buffer; };
	Buffer.isEncoding = function (name) { return typeof name === 'string' && /^(utf-?8|hex|base64(url)?|latin1|binary|ascii|utf-?16le|ucs-?2)$/i.test(name); };
	Buffer.byteLength = function (value, encoding) { return typeof value === 'string' ? encodeString(value, encoding).length : asBytes(value).byteLength; };
	Buffer.concat = function (list, total) {
		var size = 0;
		list.forEach(function (item) { size += item.length; });
		var out = new Uint8Array(total === undefined ? size : total);
		var offset = 0;
		list.forEach(function (item) { if (offset < out.length) out.set(item.subarray(0, out.length - offset), offset); offset += item.length; });
		return makeBuffer(out);
	};
	Buffer.compare = function (a, b) {
		for (var i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
		return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
	};
	Buffer.prototype.toString = function (encoding, start, end) { return decodeBytes(this.subarray(start || 0, end === undefined ? this.length : end), encoding); };
	Buffer.prototype.toJSON = function () { return { type: 'Buffer', data: Array.prototype.slice.call(this) }; };
	Buffer.prototype.equals = function (other) { return Buffer.compare(this, other) === 0; };
	Buffer.prototype.compare = function (other) { return Buffer.compare(this, other); };
	Buffer.prototype.write = function (text, offset, encoding) { var bytes = encodeString(text, encoding); this.set(bytes.subarray(0, this.length - (offset || 0)), offset || 0); return Math.min(bytes.length, this.length - (offset || 0)); };
	Buffer.prototype.subarray = function (start, end) { return makeBuffer(Uint8Array.prototype.subarray.call(this, start, end)); };
	Buffer.prototype.slice = Buffer.prototype.subarray;
	Buffer.prototype.readUInt8 = function (offset) { return this[offset || 0]; };
	Buffer.prototype.readUInt32BE = function (offset) { return new DataView(this.buffer, this.byteOffset).getUint32(offset || 0); };
	Buffer.prototype.writeUInt32BE = function (value, offset) { new DataView(this.buffer, this.byteOffset).setUint32(offset || 0, value); return (offset || 0) + 4; };
	Buffer.prototype.toLocaleString = Buffer.prototype.toString;
	globalThis.Buffer = Buffer;
	// For buffer-prelude.ts, which adds the rest of Buffer's methods.
	globalThis.__threadlineBytes = { encodeString: encodeString, decodeBytes: decodeBytes, makeBuffer: makeBuffer, asBytes: asBytes, toHex: toHex, fromHex: fromHex };

	// ---- crypto ----
	function randomBytes(size) { return fromHex(host.random(size)); }
	var cryptoObject = {
		getRandomValues: function (array) {
			if (!ArrayBuffer.isView(array)) throw new TypeError('The data argument must be an integer-type TypedArray');
			if (array.byteLength > 65536) {
				var error = new Error("The ArrayBufferView's byte length (" + array.byteLength + ') exceeds the number of bytes of entropy available via this API (65536)');
				error.name = 'QuotaExceededError';
				throw error;
			}
			new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(randomBytes(array.byteLength));
			return array;
		},
		randomUUID: function () {
			var b = randomBytes(16);
			b[6] = (b[6] & 15) | 64;
			b[8] = (b[8] & 63) | 128;
			var hex = decodeBytes(b, 'hex');
			return hex.slice(0, 8) + '-' + hex.slice(8, 12) + '-' + hex.slice(12, 16) + '-' + hex.slice(16, 20) + '-' + hex.slice(20);
		}
	};
	function hashName(algorithm) {
		var name = typeof algorithm === 'string' ? algorithm : algorithm && algorithm.name;
		name = String(name || '').toUpperCase().replace(/^SHA(\d)/, 'SHA-$1');
		if (['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512'].indexOf(name) === -1) {
			throw codeError(Error, 'ERR_CRYPTO_UNSUPPORTED', 'The offline runtime supports SHA-1, SHA-256, SHA-384 and SHA-512 (digest, HMAC) only, not ' + (name || String(algorithm)) + '; use the WebContainer sandbox for the rest of Web Crypto');
		}
		return name;
	}
	/** Web Crypto's "SHA-256" as the host's hash names ("sha256"). */
	function hostHashName(name) { return name.toLowerCase().replace('-', ''); }
	function CryptoKey(bytes, algorithm, extractable, usages) {
		Object.defineProperty(this, '__bytes', { value: bytes });
		this.type = 'secret';
		this.algorithm = algorithm;
		this.extractable = extractable;
		this.usages = usages;
	}
	globalThis.CryptoKey = CryptoKey;
	function settle(work) {
		return new Promise(function (resolve) { resolve(work()); });
	}
	function hmacBytes(key, data) { return fromHex(host.hmac(hostHashName(key.algorithm.hash.name), toHex(key.__bytes), toHex(asBytes(data)))); }
	function checkHmacKey(key, usage) {
		if (!(key instanceof CryptoKey) || key.algorithm.name !== 'HMAC') throw new TypeError('key must be an HMAC CryptoKey (importKey raw, { name: "HMAC", hash: "SHA-256" })');
		if (key.usages.indexOf(usage) === -1) { var error = new Error('key does not allow ' + usage); error.name = 'InvalidAccessError'; throw error; }
	}
	cryptoObject.subtle = {
		digest: function (algorithm, data) {
			return settle(function () { var name = hashName(algorithm); return fromHex(host.digest(hostHashName(name), toHex(asBytes(data)))).buffer; });
		},
		importKey: function (format, keyData, algorithm, extractable, usages) {
			return settle(function () {
				var name = String(algorithm && algorithm.name || algorithm).toUpperCase();
				if (format !== 'raw' || name !== 'HMAC') throw codeError(Error, 'ERR_CRYPTO_UNSUPPORTED', 'The offline runtime imports raw HMAC keys only (importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, …)); use the WebContainer sandbox for the rest of Web Crypto');
				var hash = hashName(algorithm.hash);
				var bytes = new Uint8Array(asBytes(keyData));
				return new CryptoKey(bytes, { name: 'HMAC', hash: { name: hash }, length: bytes.length * 8 }, !!extractable, Array.prototype.slice.call(usages || []));
			});
		},
		exportKey: function (format, key) {
			return settle(function () {
				if (format !== 'raw' || !key.extractable) { var error = new Error('key is not extractable'); error.name = 'InvalidAccessError'; throw error; }
				return new Uint8Array(key.__bytes).buffer;
			});
		},
		generateKey: function (algorithm, extractable, usages) {
			return settle(function () {
				var hash = hashName(algorithm.hash);
				// Without a length, the hash's block size, as Web Crypto says.
				var length = algorithm.length || (hash === 'SHA-384' || hash === 'SHA-512' ? 1024 : 512);
				return new CryptoKey(randomBytes(length / 8), { name: 'HMAC', hash: { name: hash }, length: length }, !!extractable, usages);
			});
		},
		sign: function (algorithm, key, data) {
			return settle(function () { checkHmacKey(key, 'sign'); return hmacBytes(key, data).buffer; });
		},
		verify: function (algorithm, key, signature, data) {
			return settle(function () {
				checkHmacKey(key, 'verify');
				var expected = hmacBytes(key, data);
				var given = asBytes(signature);
				if (given.length !== expected.length) return false;
				var difference = 0;
				for (var i = 0; i < given.length; i++) difference |= given[i] ^ expected[i];
				return difference === 0;
			});
		}
	};
	globalThis.crypto = cryptoObject;

	// node:crypto's digests: the host computes them (host-hash-algorithms.ts); names as Node spells them.
	var supportedHashes = JSON.parse(host.hashNames());
	function nodeHashName(kind) {
		var name = String(kind).toLowerCase().replace(/^rsa-/, '').replace(/^sha-(\d)/, 'sha$1');
		return supportedHashes.indexOf(name) === -1 ? undefined : name;
	}
	function Hash(kind, key) {
		this.kind = nodeHashName(kind);
		if (!this.kind) {
			if (key) throw codeError(TypeError, 'ERR_CRYPTO_INVALID_DIGEST', 'Invalid digest: ' + kind);
			throw new Error('Digest method not supported (the offline runtime has ' + supportedHashes.join(', ') + ')');
		}
		this.key = key;
		this.parts = [];
		this.finished = false;
	}
	Hash.prototype.checkOpen = function () {
		if (this.finished) throw codeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
	};
	Hash.prototype.update = function (data, encoding) {
		this.checkOpen();
		this.parts.push(typeof data === 'string' ? encodeString(data, encoding) : asBytes(data));
		return this;
	};
	Hash.prototype.copy = function () {
		this.checkOpen();
		var twin = new Hash(this.kind, this.key);
		twin.parts = this.parts.slice();
		return twin;
	};
	Hash.prototype.digest = function (encoding) {
		this.checkOpen();
		this.finished = true;
		var data = toHex(Buffer.concat(this.parts));
		var bytes = fromHex(this.key ? host.hmac(this.kind, toHex(this.key), data) : host.digest(this.kind, data));
		var buffer = makeBuffer(bytes);
		return encoding ? buffer.toString(encoding) : buffer;
	};
	var nodeCrypto = {
		createHash: function (kind) { return new Hash(kind); },
		createHmac: function (kind, key) { return new Hash(kind, typeof key === 'string' ? utf8Encode(key) : new Uint8Array(asBytes(key))); },
		getHashes: function () { return supportedHashes.slice(); },
		hash: function (kind, data, encoding) { return new Hash(kind).update(data).digest(encoding === undefined ? 'hex' : encoding); },
		randomBytes: function (size, callback) {
			if (typeof size !== 'number' || size < 0 || size > 2147483647 || size !== size) throw codeError(RangeError, 'ERR_OUT_OF_RANGE', 'The value of "size" is out of range. It must be >= 0 && <= 2147483647. Received ' + size);
			var out = new Uint8Array(size);
			for (var offset = 0; offset < size; offset += 65536) out.set(randomBytes(Math.min(65536, size - offset)), offset);
			var buffer = makeBuffer(out);
			if (typeof callback === 'function') { setImmediate(function () { callback(null, buffer); }); return undefined; }
			return buffer;
		},
		randomFillSync: function (target, offset, size) {
			var view = asBytes(target);
			offset = offset || 0;
			size = size === undefined ? view.length - offset : size;
			view.set(nodeCrypto.randomBytes(size), offset);
			return target;
		},
		randomFill: function (target, offset, size, callback) {
			var args = Array.prototype.slice.call(arguments);
			var done = args.pop();
			nodeCrypto.randomFillSync.apply(undefined, args);
			setImmediate(function () { done(null, target); });
		},
		randomUUID: cryptoObject.randomUUID,
		randomInt: function (min, max) { if (max === undefined) { max = min; min = 0; } var b = randomBytes(4); return min + Math.floor((((b[0] << 24) >>> 0) + (b[1] << 16) + (b[2] << 8) + b[3]) / 4294967296 * (max - min)); },
		getRandomValues: cryptoObject.getRandomValues,
		timingSafeEqual: function (a, b) {
			if (a.length !== b.length) throw codeError(RangeError, 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH', 'Input buffers must have the same byte length');
			var difference = 0;
			for (var i = 0; i < a.length; i++) difference |= a[i] ^ b[i];
			return difference === 0;
		},
		webcrypto: cryptoObject,
		subtle: cryptoObject.subtle
	};

	// ---- path (POSIX) ----
	function normalizeString(path, allowAboveRoot) {
		var out = [];
		path.split('/').forEach(function (part) {
			if (part === '' || part === '.') return;
			if (part === '..') {
				if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
				else if (allowAboveRoot) out.push('..');
			} else out.push(part);
		});
		return out.join('/');
	}
	function checkPath(value, name) {
		if (typeof value !== 'string') throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "' + (name || 'path') + '" argument must be of type string. Received ' + inspectValue(value));
	}
	var path = {
		sep: '/',
		delimiter: ':',
		normalize: function (p) {
			checkPath(p);
			if (p === '') return '.';
			var absolute = p[0] === '/';
			var trailing = p[p.length - 1] === '/';
			var out = normalizeString(p, !absolute);
			if (out === '' && !absolute) out = '.';
			if (out !== '' && trailing) out += '/';
			return absolute ? '/' + out : out;
		},
		join: function () {
			var parts = Array.prototype.slice.call(arguments);
			parts.forEach(function (part) { checkPath(part); });
			var joined = parts.filter(function (part) { return part !== ''; }).join('/');
			return joined === '' ? '.' : path.normalize(joined);
		},
		resolve: function () {
			var resolved = '';
			var absolute = false;
			for (var i = arguments.length - 1; i >= -1 && !absolute; i--) {
				var part = i >= 0 ? arguments[i] : process.cwd();
				checkPath(part);
				if (part === '') continue;
				resolved = part + '/' + resolved;
				absolute = part[0] === '/';
			}
			var out = normalizeString(resolved, !absolute);
			return absolute ? '/' + out : out || '.';
		},
		isAbsolute: function (p) { checkPath(p); return p.length > 0 && p[0] === '/'; },
		dirname: function (p) {
			checkPath(p);
			if (p === '') return '.';
			var end = p.length;
			while (end > 1 && p[end - 1] === '/') end--;
			var index = p.lastIndexOf('/', end - 1);
			if (index === -1) return '.';
			if (index === 0) return '/';
			return p.slice(0, index);
		},
		basename: function (p, ext) {
			checkPath(p);
			var end = p.length;
			while (end > 1 && p[end - 1] === '/') end--;
			var base = p.slice(p.lastIndexOf('/', end - 1) + 1, end);
			if (ext && base !== ext && base.slice(-ext.length) === ext) base = base.slice(0, -ext.length);
			return base;
		},
		extname: function (p) {
			checkPath(p);
			var base = path.basename(p);
			var index = base.lastIndexOf('.');
			return index <= 0 ? '' : base.slice(index);
		},
		relative: function (from, to) {
			from = path.resolve(from);
			to = path.resolve(to);
			if (from === to) return '';
			var fromParts = from.split('/').filter(Boolean);
			var toParts = to.split('/').filter(Boolean);
			var common = 0;
			while (common < fromParts.length && common < toParts.length && fromParts[common] === toParts[common]) common++;
			var up = fromParts.slice(common).map(function () { return '..'; });
			return up.concat(toParts.slice(common)).join('/');
		},
		parse: function (p) {
			checkPath(p);
			var root = p[0] === '/' ? '/' : '';
			var base = path.basename(p);
			var ext = path.extname(p);
			var dir = path.dirname(p);
			return { root: root, dir: dir === '.' && p.indexOf('/') === -1 ? '' : dir, base: base, ext: ext, name: ext ? base.slice(0, -ext.length) : base };
		},
		format: function (parts) {
			var dir = parts.dir || parts.root || '';
			var base = parts.base || (parts.name || '') + (parts.ext || '');
			return dir ? (dir === parts.root ? dir + base : dir + '/' + base) : base;
		},
		toNamespacedPath: function (p) { return p; }
	};
	path.posix = path;
	path.win32 = path;

	// ---- URL ----
	function URLSearchParams(init) {
		this._list = [];
		this._url = null;
		if (init === undefined || init === null) return;
		if (typeof init === 'object') {
			var self = this;
			if (typeof init[Symbol.iterator] === 'function') {
				Array.from(init).forEach(function (pair) { self._list.push([String(pair[0]), String(pair[1])]); });
			} else Object.keys(init).forEach(function (key) { self._list.push([key, String(init[key])]); });
			return;
		}
		var text = String(init);
		if (text[0] === '?') text = text.slice(1);
		var list = this._list;
		text.split('&').forEach(function (pair) {
			if (pair === '') return;
			var index = pair.indexOf('=');
			var key = index === -1 ? pair : pair.slice(0, index);
			var value = index === -1 ? '' : pair.slice(index + 1);
			list.push([decodeForm(key), decodeForm(value)]);
		});
	}
	function decodeForm(text) {
		try { return decodeURIComponent(text.replace(/\+/g, ' ')); } catch (error) { return text; }
	}
	function encodeForm(text) {
		return encodeURIComponent(text).replace(/%20/g, '+').replace(/[!'()~]/g, function (c) { return '%' + c.charCodeAt(0).toString(16).toUpperCase(); });
	}
	URLSearchParams.prototype = {
		constructor: URLSearchParams,
		_update: function () { if (this._url) { var search = this.toString(); this._url._parts.search = search ? '?' + search : ''; this._url._refresh(); } },
		append: function (key, value) { this._list.push([String(key), String(value)]); this._update(); },
		delete: function (key) { this._list = this._list.filter(function (pair) { return pair[0] !== String(key); }); this._update(); },
		get: function (key) { for (var i = 0; i < this._list.length; i++) if (this._list[i][0] === String(key)) return this._list[i][1]; return null; },
		getAll: function (key) { return this._list.filter(function (pair) { return pair[0] === String(key); }).map(function (pair) { return pair[1]; }); },
		has: function (key) { return this.get(key) !== null; },
		set: function (key, value) {
			key = String(key);
			var index = -1;
			this._list = this._list.filter(function (pair, position) { if (pair[0] !== key) return true; if (index === -1) { index = position; return true; } return false; });
			if (index === -1) this._list.push([key, String(value)]); else this._list[index][1] = String(value);
			this._update();
		},
		sort: function () { this._list.sort(function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0; }); this._update(); },
		forEach: function (callback, thisArg) { var self = this; this._list.forEach(function (pair) { callback.call(thisArg, pair[1], pair[0], self); }); },
		keys: function () { return this._list.map(function (pair) { return pair[0]; })[Symbol.iterator](); },
		values: function () { return this._list.map(function (pair) { return pair[1]; })[Symbol.iterator](); },
		entries: function () { return this._list.map(function (pair) { return [pair[0], pair[1]]; })[Symbol.iterator](); },
		toString: function () { return this._list.map(function (pair) { return encodeForm(pair[0]) + '=' + encodeForm(pair[1]); }).join('&'); }
	};
	URLSearchParams.prototype[Symbol.iterator] = URLSearchParams.prototype.entries;
	Object.defineProperty(URLSearchParams.prototype, 'size', { get: function () { return this._list.length; } });

	function parseUrl(input, base) {
		var parsed = JSON.parse(host.url(String(input), base === undefined ? '' : String(base), base !== undefined));
		if (parsed.error) throw codeError(TypeError, 'ERR_INVALID_URL', 'Invalid URL', { input: String(input) });
		return parsed;
	}
	function URL(input, base) {
		this._parts = parseUrl(input, base);
		this._params = new URLSearchParams(this._parts.search);
		this._params._url = this;
	}
	URL.canParse = function (input, base) { try { parseUrl(input, base); return true; } catch (error) { return false; } };
	URL.prototype._refresh = function () { this._parts = parseUrl(this._parts.protocol + (this._parts.host || this._parts.protocol === 'file:' ? '//' : '') + (this._parts.username ? this._parts.username + (this._parts.password ? ':' + this._parts.password : '') + '@' : '') + this._parts.host + this._parts.pathname + this._parts.search + this._parts.hash); };
	['protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash'].forEach(function (name) {
		Object.defineProperty(URL.prototype, name, {
			get: function () { return this._parts[name]; },
			set: function (value) {
				value = String(value);
				if (name === 'hostname' || name === 'port') {
					this._parts.host = name === 'hostname' ? value + (this._parts.port ? ':' + this._parts.port : '') : this._parts.hostname + (value ? ':' + value : '');
				} else if (name === 'search') this._parts.search = value === '' || value[0] === '?' ? value : '?' + value;
				else if (name === 'hash') this._parts.hash = value === '' || value[0] === '#' ? value : '#' + value;
				else if (name === 'protocol') this._parts.protocol = value.replace(/:?$/, ':');
				else this._parts[name] = value;
				this._refresh();
				if (name === 'search') { this._params = new URLSearchParams(this._parts.search); this._params._url = this; }
			}
		});
	});
	Object.defineProperty(URL.prototype, 'href', { get: function () { return this._parts.href; }, set: function (value) { this._parts = parseUrl(value); this._params = new URLSearchParams(this._parts.search); this._params._url = this; } });
	Object.defineProperty(URL.prototype, 'origin', { get: function () { return this._parts.origin; } });
	Object.defineProperty(URL.prototype, 'searchParams', { get: function () { return this._params; } });
	URL.prototype.toString = function () { return this.href; };
	URL.prototype.toJSON = function () { return this.href; };
	globalThis.URL = URL;
	globalThis.URLSearchParams = URLSearchParams;

	function fileURLToPath(value) {
		var url = typeof value === 'string' ? new URL(value) : value;
		if (!url || url.protocol !== 'file:') throw codeError(TypeError, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
		if (url.hostname) throw codeError(TypeError, 'ERR_INVALID_FILE_URL_HOST', 'File URL host must be "localhost" or empty on linux');
		if (/%2f/i.test(url.pathname)) throw codeError(TypeError, 'ERR_INVALID_FILE_URL_PATH', 'File URL path must not include encoded / characters');
		return decodeURIComponent(url.pathname);
	}
	function pathToFileURL(p) {
		var resolved = path.resolve(p);
		if (p[p.length - 1] === '/' && resolved !== '/') resolved += '/';
		return new URL('file://' + resolved.split('/').map(function (part) { return encodeURIComponent(part).replace(/%40/g, '@').replace(/%3A/g, ':'); }).join('/'));
	}
	var url = { URL: URL, URLSearchParams: URLSearchParams, fileURLToPath: fileURLToPath, pathToFileURL: pathToFileURL };

	globalThis.__threadlineImportMeta = function (filename, dirname) {
		return {
			url: pathToFileURL(filename).href,
			filename: filename,
			dirname: dirname,
			resolve: function (specifier) {
				var found = JSON.parse(host.resolve(String(specifier), filename, 'import'));
				if (found.kind === 'error') throw codeError(Error, found.code, found.message);
				return found.kind === 'builtin' ? 'node:' + found.name : pathToFileURL(found.path).href;
			}
		};
	};

	// ---- structuredClone ----
	globalThis.structuredClone = function (value) {
		var seen = new Map();
		function clone(item) {
			if (item === null || typeof item !== 'object') {
				if (typeof item === 'function' || typeof item === 'symbol') {
					var error = new Error(String(item) + ' could not be cloned.');
					error.name = 'DataCloneError';
					throw error;
				}
				return item;
			}
			if (seen.has(item)) return seen.get(item);
			var out;
			if (item instanceof Date) out = new Date(item.getTime());
			else if (item instanceof RegExp) out = new RegExp(item.source, item.flags);
			else if (item instanceof Map) { out = new Map(); seen.set(item, out); item.forEach(function (v, k) { out.set(clone(k), clone(v)); }); return out; }
			else if (item instanceof Set) { out = new Set(); seen.set(item, out); item.forEach(function (v) { out.add(clone(v)); }); return out; }
			else if (item instanceof ArrayBuffer) out = item.slice(0);
			else if (ArrayBuffer.isView(item)) out = new item.constructor(item);
			else if (item instanceof Error) { out = new item.constructor(item.message); out.stack = item.stack; }
			else if (Array.isArray(item)) { out = []; seen.set(item, out); item.forEach(function (v, i) { out[i] = clone(v); }); return out; }
			else { out = {}; seen.set(item, out); Object.keys(item).forEach(function (key) { out[key] = clone(item[key]); }); return out; }
			seen.set(item, out);
			return out;
		}
		return clone(value);
	};

	// ---- events (events-prelude.ts) ----
	var EventEmitter = globalThis.__threadlineEvents.EventEmitter;

	// ---- util ----
	var util = {
		format: function () { return formatArguments(arguments); },
		inspect: function (value) { return inspectValue(value, true); },
		promisify: function (fn) {
			return function () {
				var args = Array.prototype.slice.call(arguments);
				var self = this;
				return new Promise(function (resolve, reject) {
					fn.apply(self, args.concat([function (error, value) { if (error) reject(error); else resolve(value); }]));
				});
			};
		},
		isDeepStrictEqual: function (a, b) { return globalThis.__threadlineDeepEqual(a, b, true); },
		types: {
			isPromise: function (value) { return value instanceof Promise; },
			isDate: function (value) { return value instanceof Date; },
			isRegExp: function (value) { return value instanceof RegExp; }
		},
		inherits: function (child, parent) { Object.setPrototypeOf(child.prototype, parent.prototype); Object.setPrototypeOf(child, parent); },
		deprecate: function (fn) { return fn; },
		TextEncoder: TextEncoder,
		TextDecoder: TextDecoder
	};

	// ---- process ----
	// process is an EventEmitter, as in Node (on/once/emit/listeners/prependListener …).
	['on', 'once', 'off', 'emit', 'listenerCount', 'addListener', 'removeListener'].forEach(function (name) { delete process[name]; });
	Object.setPrototypeOf(process, EventEmitter.prototype);
	EventEmitter.init.call(process);
	var processEvents = process;
	process.emitWarning = function (warning, typeOrOptions, code) {
		var type = typeof typeOrOptions === 'string' ? typeOrOptions : typeOrOptions && typeOrOptions.type;
		var warningCode = typeof typeOrOptions === 'object' && typeOrOptions ? typeOrOptions.code : code;
		if (typeof warning === 'string') {
			var made = new Error(warning);
			made.name = type || 'Warning';
			if (warningCode !== undefined) made.code = warningCode;
			if (typeOrOptions && typeof typeOrOptions === 'object' && typeOrOptions.detail !== undefined) made.detail = typeOrOptions.detail;
			warning = made;
		}
		if (warning.name === 'DeprecationWarning' && process.noDeprecation) return;
		process.nextTick(function () {
			process.emit('warning', warning);
			// Node prints every warning (listeners or not) unless started with --no-warnings.
			if (!process.noProcessWarnings) console.error('(node:' + process.pid + ') ' + (warning.code ? '[' + warning.code + '] ' : '') + warning.name + ': ' + warning.message);
		});
	};
	process.version = 'v20.0.0-threadline';
	process.versions = { node: '20.0.0-threadline', quickjs: '2025-09-13' };
	process.release = { name: 'node' };
	process.stdout.columns = 80;
	process.browser = false;
	process.features = {};
	process.config = {};
	process.title = 'node';
	process.allowedNodeEnvironmentFlags = new Set();
	// An exception no code caught (a timer's, a tick's): process listeners first, then the test
	// runner (it fails the running test); false ends the program (quickjs-prelude.ts).
	globalThis.__threadlineUncaught = function (error) {
		if (process.listenerCount('uncaughtException') > 0) {
			process.emit('uncaughtException', error, 'uncaughtException');
			return true;
		}
		return typeof globalThis.__threadlineTestUncaught === 'function' && globalThis.__threadlineTestUncaught(error) === true;
	};
	// The host calls this when nothing is left to run (Node's beforeExit): true if more was queued.
	globalThis.__threadlineBeforeExit = function () {
		var hooks = globalThis.__threadlineBeforeExitHooks || [];
		var more = false;
		hooks.forEach(function (hook) { if (hook()) more = true; });
		if (!more && processEvents.listenerCount('beforeExit') > 0 && !process.__beforeExitDone) {
			process.__beforeExitDone = true;
			processEvents.emit('beforeExit', process.exitCode || 0);
			more = true;
		}
		return more;
	};
	globalThis.__threadlineEmitExit = function (code) {
		try { processEvents.emit('exit', code); } catch (error) { if (!globalThis.__threadlineIsExit(error)) throw error; }
	};

	// ---- fs ----
	function fsCall(operation, args) {
		var result = JSON.parse(host.fs(operation, JSON.stringify(args)));
		if (result.error) throw codeError(Error, result.error.code, result.error.message, { errno: -1, syscall: result.error.syscall, path: result.error.path });
		return result;
	}
	function toPath(value) {
		if (value instanceof URL) return fileURLToPath(value);
		if (value instanceof Uint8Array) return utf8Decode(value);
		checkPath(value);
		return path.resolve(value);
	}
	function encodingOf(options) {
		if (typeof options === 'string') return options;
		return options && options.encoding ? options.encoding : null;
	}
	function Stats(entry) {
		this.size = entry.size;
		this.mtimeMs = entry.mtimeMs;
		this.mtime = new Date(entry.mtimeMs);
		this.atime = this.mtime;
		this.ctime = this.mtime;
		this.birthtime = this.mtime;
		this.atimeMs = this.ctimeMs = this.birthtimeMs = entry.mtimeMs;
		this.mode = entry.kind === 'directory' ? 16877 : 33188;
		this.uid = this.gid = 1000;
		this.nlink = 1;
		this.dev = this.ino = 0;
		this._kind = entry.kind;
	}
	Stats.prototype.isFile = function () { return this._kind === 'file'; };
	Stats.prototype.isDirectory = function () { return this._kind === 'directory'; };
	Stats.prototype.isSymbolicLink = function () { return false; };
	function Dirent(name, kind, parent) { this.name = name; this._kind = kind; this.parentPath = parent; this.path = parent; }
	Dirent.prototype.isFile = function () { return this._kind === 'file'; };
	Dirent.prototype.isDirectory = function () { return this._kind === 'directory'; };
	Dirent.prototype.isSymbolicLink = function () { return false; };
	function dataBytes(data, options) {
		if (typeof data === 'string') return encodeString(data, encodingOf(options) || 'utf8');
		if (ArrayBuffer.isView(data)) return asBytes(data);
		throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ' + inspectValue(data));
	}
	var fsSync = {
		readFileSync: function (file, options) {
			var encoding = encodingOf(options);
			var result = fsCall('read', { path: toPath(file), utf8: encoding === 'utf8' || encoding === 'utf-8' });
			if (result.text !== undefined) return result.text;
			var buffer = makeBuffer(fromLatin1(result.latin1));
			return encoding ? buffer.toString(encoding) : buffer;
		},
		writeFileSync: function (file, data, options) {
			var flag = options && options.flag;
			fsCall('write', { path: toPath(file), latin1: toLatin1(dataBytes(data, options)), append: flag === 'a' });
		},
		appendFileSync: function (file, data, options) { fsCall('write', { path: toPath(file), latin1: toLatin1(dataBytes(data, options)), append: true }); },
		existsSync: function (file) { try { return fsCall('stat', { path: toPath(file) }).entry !== null; } catch (error) { return false; } },
		statSync: function (file, options) {
			var entry = fsCall('stat', { path: toPath(file) }).entry;
			if (entry === null) {
				if (options && options.throwIfNoEntry === false) return undefined;
				throw codeError(Error, 'ENOENT', "ENOENT: no such file or directory, stat '" + toPath(file) + "'", { errno: -2, syscall: 'stat', path: toPath(file) });
			}
			return new Stats(entry);
		},
		readdirSync: function (folder, options) {
			var at = toPath(folder);
			var entries = fsCall('list', { path: at, recursive: !!(options && options.recursive) }).entries;
			if (options && options.withFileTypes) return entries.map(function (entry) { var slash = entry.name.lastIndexOf('/'); return new Dirent(entry.name.slice(slash + 1), entry.kind, slash === -1 ? at : at + '/' + entry.name.slice(0, slash)); });
			return entries.map(function (entry) { return entry.name; });
		},
		mkdirSync: function (folder, options) {
			var recursive = typeof options === 'object' && options !== null && !!options.recursive;
			return fsCall('mkdir', { path: toPath(folder), recursive: recursive }).first;
		},
		rmSync: function (file, options) { fsCall('rm', { path: toPath(file), recursive: !!(options && options.recursive), force: !!(options && options.force) }); },
		rmdirSync: function (folder, options) { fsCall('rm', { path: toPath(folder), recursive: !!(options && options.recursive), force: false, directoryOnly: true }); },
		unlinkSync: function (file) {
			var at = toPath(file);
			var entry = fsCall('stat', { path: at }).entry;
			if (entry && entry.kind === 'directory') throw codeError(Error, 'EISDIR', "EISDIR: illegal operation on a directory, unlink '" + at + "'", { syscall: 'unlink', path: at });
			fsCall('rm', { path: at, recursive: false, force: false });
		},
		renameSync: function (from, to) { fsCall('rename', { from: toPath(from), to: toPath(to) }); },
		copyFileSync: function (from, to) { fsSync.writeFileSync(to, fsSync.readFileSync(from)); },
		cpSync: function (from, to, options) {
			var source = toPath(from);
			if (fsSync.statSync(source).isDirectory()) {
				if (!options || !options.recursive) throw codeError(Error, 'ERR_FS_EISDIR', 'Recursive option is required to copy a directory: ' + source);
				fsSync.mkdirSync(to, { recursive: true });
				fsSync.readdirSync(source).forEach(function (name) { fsSync.cpSync(source + '/' + name, path.join(toPath(to), name), options); });
			} else fsSync.copyFileSync(source, to);
		},
		accessSync: function (file) { if (!fsSync.existsSync(file)) fsSync.statSync(file); },
		realpathSync: function (file) { fsSync.statSync(file); return toPath(file); },
		mkdtempSync: function (prefix) { var name = prefix + Math.random().toString(36).slice(2, 8); fsSync.mkdirSync(name); return name; },
		createWriteStream: undefined,
		constants: { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1 }
	};
	fsSync.lstatSync = fsSync.statSync;
	fsSync.realpathSync.native = fsSync.realpathSync;
	var fsPromises = {};
	var callbackFs = {};
	var promiseNames = { readFile: 'readFileSync', writeFile: 'writeFileSync', appendFile: 'appendFileSync', stat: 'statSync', lstat: 'lstatSync', readdir: 'readdirSync', mkdir: 'mkdirSync', rm: 'rmSync', rmdir: 'rmdirSync', unlink: 'unlinkSync', rename: 'renameSync', copyFile: 'copyFileSync', cp: 'cpSync', access: 'accessSync', realpath: 'realpathSync', mkdtemp: 'mkdtempSync' };
	Object.keys(promiseNames).forEach(function (name) {
		var sync = fsSync[promiseNames[name]];
		fsPromises[name] = function () {
			var args = arguments;
			return new Promise(function (resolve) { resolve(sync.apply(undefined, args)); });
		};
		callbackFs[name] = function () {
			var args = Array.prototype.slice.call(arguments);
			var callback = args.pop();
			if (typeof callback !== 'function') throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "cb" argument must be of type function');
			var value, failure = null;
			try { value = sync.apply(undefined, args); } catch (error) { failure = error; }
			setTimeout(function () { callback(failure, value); }, 0);
		};
	});
	callbackFs.exists = function (file, callback) { var found = fsSync.existsSync(file); setTimeout(function () { callback(found); }, 0); };
	fsPromises.constants = fsSync.constants;
	var fs = Object.assign({}, callbackFs, fsSync, { promises: fsPromises });
	fs.createWriteStream = function (file) {
		fsSync.writeFileSync(file, '');
		return { write: function (data) { fsSync.appendFileSync(file, data); return true; }, end: function (data) { if (data !== undefined) fsSync.appendFileSync(file, data); }, on: function () { return this; } };
	};

	// ---- os, timers/promises ----
	var os = {
		EOL: '\n',
		platform: function () { return 'linux'; },
		type: function () { return 'Linux'; },
		arch: function () { return 'wasm32'; },
		tmpdir: function () { return '/tmp'; },
		homedir: function () { return process.env.HOME || '/workspace'; },
		hostname: function () { return 'sandbox'; },
		cpus: function () { return [{ model: 'QuickJS', speed: 0 }]; },
		totalmem: function () { return 64 * 1024 * 1024; },
		freemem: function () { return 0; },
		endianness: function () { return 'LE'; },
		release: function () { return '0.0.0'; }
	};
	var timersPromises = {
		setTimeout: function (delay, value) { return new Promise(function (resolve) { setTimeout(function () { resolve(value); }, delay); }); },
		setImmediate: function (value) { return new Promise(function (resolve) { setImmediate(function () { resolve(value); }); }); }
	};
	var timers = { setTimeout: setTimeout, clearTimeout: clearTimeout, setInterval: setInterval, clearInterval: clearInterval, setImmediate: setImmediate, clearImmediate: clearImmediate, promises: timersPromises };
	globalThis.performance = globalThis.performance || { now: function () { return Date.now(); }, timeOrigin: Date.now() };

	// ---- modules ----
	var builtins = {
		path: path, 'path/posix': path, url: url, fs: fs, 'fs/promises': fsPromises, events: EventEmitter,
		util: util, os: os, crypto: nodeCrypto, process: process,
		timers: timers, 'timers/promises': timersPromises
	};
	var lateBuiltins = {};
	globalThis.__threadlineDefineBuiltin = function (name, factory) { lateBuiltins[name] = factory; };
	function builtin(name) {
		if (!(name in builtins) && lateBuiltins[name]) builtins[name] = lateBuiltins[name]();
		if (!(name in builtins)) throw codeError(Error, 'ERR_UNKNOWN_BUILTIN_MODULE', 'No such built-in module: node:' + name);
		return builtins[name];
	}
	globalThis.__threadlineBuiltin = builtin;

	var moduleCache = Object.create(null);
	var mainModule;
	function resolveOrThrow(specifier, fromFile, mode) {
		var found = JSON.parse(host.resolve(String(specifier), fromFile, mode));
		if (found.kind === 'error') throw codeError(Error, found.code, found.message, { requireStack: [fromFile] });
		return found;
	}
	function makeRequire(fromFile) {
		function require(specifier) {
			if (typeof specifier !== 'string') throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "id" argument must be of type string. Received ' + inspectValue(specifier));
			var found = resolveOrThrow(specifier, fromFile, 'require');
			if (found.kind === 'builtin') return builtin(found.name);
			return loadCommonJs(found.path).exports;
		}
		require.resolve = function (specifier) {
			var found = resolveOrThrow(specifier, fromFile, 'require');
			return found.kind === 'builtin' ? found.name : found.path;
		};
		require.cache = moduleCache;
		require.main = mainModule;
		return require;
	}
	function Module(filename) {
		this.id = filename;
		this.filename = filename;
		this.path = path.dirname(filename);
		this.exports = {};
		this.loaded = false;
		this.children = [];
		this.paths = [];
	}
	// Node's hook point: require hooks and test tools replace Module.prototype._compile.
	Module.prototype._compile = function (content, filename) {
		var wrapper = host.compile('(function (exports, require, module, __filename, __dirname) {' + content + '\n})', filename);
		return wrapper.call(this.exports, this.exports, this.require || makeRequire(filename), this, filename, path.dirname(filename));
	};
	Module.prototype.require = function (specifier) { return makeRequire(this.filename)(specifier); };
	function loadCommonJs(filename, isMain) {
		var cached = moduleCache[filename];
		if (cached) return cached;
		var loaded = JSON.parse(host.loadCommonJs(filename));
		if (loaded.error) {
			var Kind = loaded.error.name === 'SyntaxError' ? SyntaxError : Error;
			throw codeError(Kind, loaded.error.code, loaded.error.message);
		}
		var module = new Module(filename);
		if (isMain) { mainModule = module; module.id = '.'; }
		moduleCache[filename] = module;
		module.require = makeRequire(filename);
		try {
			if (loaded.json !== undefined) {
				try { module.exports = JSON.parse(loaded.json); } catch (error) { error.message = filename + ': ' + error.message; throw error; }
			} else {
				module._compile(loaded.source, filename);
			}
		} catch (error) {
			delete moduleCache[filename];
			throw error;
		}
		module.loaded = true;
		return module;
	}
	// ---- module ----
	var builtinNames = JSON.parse(host.builtinNames());
	lateBuiltins.module = function () {
		function createRequire(from) {
			var file = from instanceof URL || /^file:/.test(String(from)) ? fileURLToPath(from) : String(from);
			if (!path.isAbsolute(file)) throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', "The argument 'filename' must be a file URL object, file URL string, or absolute path string. Received " + inspectValue(from));
			return makeRequire(file);
		}
		Module.createRequire = createRequire;
		Module.builtinModules = builtinNames.slice();
		Module.isBuiltin = function (name) { name = String(name); return builtinNames.indexOf(name.indexOf('node:') === 0 ? name.slice(5) : name) !== -1; };
		Module.Module = Module;
		Module._cache = moduleCache;
		Module._extensions = { '.js': function () {}, '.json': function () {}, '.node': function () {} };
		Module.register = function () { throw codeError(Error, 'ERR_NOT_SUPPORTED', 'module.register is not available in the offline runtime'); };
		Module.syncBuiltinESMExports = function () {};
		Module.findSourceMap = function () { return undefined; };
		return Module;
	};
	globalThis.__threadlineRequireModule = function (filename) { return loadCommonJs(filename).exports; };
	globalThis.__threadlineRunMain = function (filename) { loadCommonJs(filename, true); };
	globalThis.__threadlineBuiltinExports = function () {
		var out = {};
		Object.keys(builtins).concat(Object.keys(lateBuiltins)).forEach(function (name) {
			var value = builtin(name);
			out[name] = Object.keys(value).filter(function (key) { return /^[A-Za-z_$][\w$]*$/.test(key) && key !== 'default'; });
		});
		return JSON.stringify(out);
	};
	// node -e / -p: require relative to the current folder.
	globalThis.require = makeRequire(process.cwd() + '/[eval]');
	globalThis.module = new Module(process.cwd() + '/[eval]');
	globalThis.exports = globalThis.module.exports;
})();
`;
