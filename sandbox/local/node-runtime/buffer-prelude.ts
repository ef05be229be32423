/**
 * The rest of Node's Buffer for the offline runtime, evaluated after runtime-prelude.ts (which
 * has the encodings: utf8, hex, base64, base64url, latin1/binary, ascii, utf16le/ucs2): every
 * integer and float read/write (LE/BE, 8–48-bit variable widths, BigInt64), indexOf /
 * lastIndexOf / includes (string, number, bytes; with byteOffset and encoding), copy, fill,
 * write with offset/length/encoding, compare with ranges, swap16/32/64, Buffer.alloc's fill
 * encoding, and the `node:buffer` module (constants, kMaxLength, isUtf8, isAscii, atob, btoa,
 * transcode). Plain ES2020 in a string.
 */
export const bufferPrelude = String.raw`
(function () {
	'use strict';
	var bytes = globalThis.__threadlineBytes;
	delete globalThis.__threadlineBytes;
	var proto = Buffer.prototype;
	function codeError(Kind, code, message) { var error = new Kind(message); error.code = code; return error; }
	function view(buffer) { return new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength); }
	function checkOffset(buffer, offset, size) {
		if (offset === undefined) offset = 0;
		if (typeof offset !== 'number') throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "offset" argument must be of type number. Received ' + globalThis.__threadlineInspect(offset));
		if (!Number.isInteger(offset)) throw codeError(RangeError, 'ERR_OUT_OF_RANGE', 'The value of "offset" is out of range. It must be an integer. Received ' + offset);
		if (offset < 0 || offset + size > buffer.length) {
			if (buffer.length - size < 0) throw codeError(RangeError, 'ERR_BUFFER_OUT_OF_BOUNDS', 'Attempt to access memory outside buffer bounds');
			throw codeError(RangeError, 'ERR_OUT_OF_RANGE', 'The value of "offset" is out of range. It must be >= 0 and <= ' + (buffer.length - size) + '. Received ' + offset);
		}
		return offset;
	}
	function checkValue(value, min, max, size) {
		if (typeof value === 'bigint' ? value < min || value > max : value < Number(min) || value > Number(max) || value !== value) {
			var range = size > 4 || typeof value === 'bigint' ? '>= ' + min + 'n and <= ' + max + 'n' : '>= ' + min + ' and <= ' + max;
			throw codeError(RangeError, 'ERR_OUT_OF_RANGE', 'The value of "value" is out of range. It must be ' + range + '. Received ' + value);
		}
	}
	var fixed = [
		['UInt8', 1, 'getUint8', 'setUint8', 0, 255], ['Int8', 1, 'getInt8', 'setInt8', -128, 127],
		['UInt16', 2, 'getUint16', 'setUint16', 0, 65535], ['Int16', 2, 'getInt16', 'setInt16', -32768, 32767],
		['UInt32', 4, 'getUint32', 'setUint32', 0, 4294967295], ['Int32', 4, 'getInt32', 'setInt32', -2147483648, 2147483647],
		['Float', 4, 'getFloat32', 'setFloat32', -Infinity, Infinity], ['Double', 8, 'getFloat64', 'setFloat64', -Infinity, Infinity],
		['BigUInt64', 8, 'getBigUint64', 'setBigUint64', 0n, 18446744073709551615n], ['BigInt64', 8, 'getBigInt64', 'setBigInt64', -9223372036854775808n, 9223372036854775807n]
	];
	fixed.forEach(function (entry) {
		var name = entry[0], size = entry[1], get = entry[2], set = entry[3], min = entry[4], max = entry[5];
		var endings = size === 1 ? [''] : ['LE', 'BE'];
		endings.forEach(function (ending) {
			var little = ending === 'LE';
			var read = function (offset) { offset = checkOffset(this, offset, size); return view(this)[get](offset, little); };
			var write = function (value, offset) {
				offset = checkOffset(this, offset, size);
				if (size === 8 && name.indexOf('Big') === 0) { if (typeof value !== 'bigint') throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "value" argument must be of type bigint'); checkValue(value, min, max, size); }
				else { value = +value; if (name !== 'Float' && name !== 'Double') checkValue(value, min, max, size); }
				view(this)[set](offset, value, little);
				return offset + size;
			};
			proto['read' + name + ending] = read;
			proto['write' + name + ending] = write;
			if (name.indexOf('UInt') !== -1) {
				proto['read' + name.replace('UInt', 'Uint') + ending] = read;
				proto['write' + name.replace('UInt', 'Uint') + ending] = write;
			}
		});
	});
	function checkByteLength(byteLength) {
		if (!Number.isInteger(byteLength) || byteLength < 1 || byteLength > 6) throw codeError(RangeError, 'ERR_OUT_OF_RANGE', 'The value of "byteLength" is out of range. It must be >= 1 and <= 6. Received ' + byteLength);
	}
	function readVariable(buffer, offset, byteLength, little, signed) {
		checkByteLength(byteLength);
		offset = checkOffset(buffer, offset, byteLength);
		var value = 0;
		for (var i = 0; i < byteLength; i++) {
			var byte = buffer[little ? offset + byteLength - 1 - i : offset + i];
			value = value * 256 + byte;
		}
		if (signed && value >= Math.pow(2, 8 * byteLength - 1)) value -= Math.pow(2, 8 * byteLength);
		return value;
	}
	function writeVariable(buffer, value, offset, byteLength, little, signed) {
		checkByteLength(byteLength);
		offset = checkOffset(buffer, offset, byteLength);
		var limit = Math.pow(2, 8 * byteLength);
		if (signed) checkValue(value, -limit / 2, limit / 2 - 1, byteLength); else checkValue(value, 0, limit - 1, byteLength);
		var rest = value < 0 ? value + limit : value;
		for (var i = 0; i < byteLength; i++) {
			buffer[little ? offset + i : offset + byteLength - 1 - i] = rest % 256;
			rest = Math.floor(rest / 256);
		}
		return offset + byteLength;
	}
	[['UIntLE', true, false], ['UIntBE', false, false], ['IntLE', true, true], ['IntBE', false, true]].forEach(function (entry) {
		var read = function (offset, byteLength) { return readVariable(this, offset, byteLength, entry[1], entry[2]); };
		var write = function (value, offset, byteLength) { return writeVariable(this, +value, offset, byteLength, entry[1], entry[2]); };
		proto['read' + entry[0]] = read;
		proto['write' + entry[0]] = write;
		proto['read' + entry[0].replace('UInt', 'Uint')] = read;
		proto['write' + entry[0].replace('UInt', 'Uint')] = write;
	});

	function needleBytes(value, encoding) {
		if (typeof value === 'number') return new Uint8Array([value & 255]);
		if (typeof value === 'string') return bytes.encodeString(value, encoding);
		if (value instanceof Uint8Array) return value;
		throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "value" argument must be one of type number or string or an instance of Buffer or Uint8Array. Received ' + globalThis.__threadlineInspect(value));
	}
	function search(buffer, value, byteOffset, encoding, forward) {
		if (typeof byteOffset === 'string') { encoding = byteOffset; byteOffset = undefined; }
		var needle = needleBytes(value, encoding);
		var length = buffer.length;
		var start;
		if (byteOffset === undefined || byteOffset === null || byteOffset !== byteOffset) start = forward ? 0 : length;
		else { start = Math.trunc(Number(byteOffset)); if (start < 0) start = length + start; }
		if (forward) {
			if (start < 0) start = 0;
			if (needle.length === 0) return Math.min(start, length);
			for (var i = start; i <= length - needle.length; i++) {
				var found = true;
				for (var j = 0; j < needle.length; j++) if (buffer[i + j] !== needle[j]) { found = false; break; }
				if (found) return i;
			}
			return -1;
		}
		if (start < 0) return -1;
		if (needle.length === 0) return Math.min(start, length);
		for (var k = Math.min(start, length - needle.length); k >= 0; k--) {
			var match = true;
			for (var m = 0; m < needle.length; m++) if (buffer[k + m] !== needle[m]) { match = false; break; }
			if (match) return k;
		}
		return -1;
	}
	proto.indexOf = function (value, byteOffset, encoding) { return search(this, value, byteOffset, encoding, true); };
	proto.lastIndexOf = function (value, byteOffset, encoding) { return search(this, value, byteOffset, encoding, false); };
	proto.includes = function (value, byteOffset, encoding) { return search(this, value, byteOffset, encoding, true) !== -1; };
	proto.copy = function (target, targetStart, sourceStart, sourceEnd) {
		targetStart = targetStart === undefined ? 0 : Math.max(0, Math.trunc(targetStart) || 0);
		sourceStart = sourceStart === undefined ? 0 : Math.max(0, Math.trunc(sourceStart) || 0);
		sourceEnd = sourceEnd === undefined ? this.length : Math.min(this.length, Math.trunc(sourceEnd) || 0);
		if (targetStart >= target.length || sourceStart >= sourceEnd) return 0;
		var count = Math.min(sourceEnd - sourceStart, target.length - targetStart);
		Uint8Array.prototype.set.call(target, Uint8Array.prototype.subarray.call(this, sourceStart, sourceStart + count), targetStart);
		return count;
	};
	var nativeFill = Uint8Array.prototype.fill;
	proto.fill = function (value, offset, end, encoding) {
		if (typeof offset === 'string') { encoding = offset; offset = 0; end = this.length; }
		else if (typeof end === 'string') { encoding = end; end = this.length; }
		offset = offset === undefined ? 0 : offset;
		end = end === undefined ? this.length : end;
		if (offset < 0 || end > this.length) throw codeError(RangeError, 'ERR_OUT_OF_RANGE', 'The value of "offset" is out of range.');
		if (typeof value === 'number' || typeof value === 'boolean') { nativeFill.call(this, Number(value) & 255, offset, end); return this; }
		var pattern = needleBytes(value, encoding);
		if (pattern.length === 0) { nativeFill.call(this, 0, offset, end); return this; }
		for (var i = offset, j = 0; i < end; i++, j = (j + 1) % pattern.length) this[i] = pattern[j];
		return this;
	};
	proto.write = function (text, offset, length, encoding) {
		if (typeof offset === 'string') { encoding = offset; offset = 0; length = this.length; }
		else if (typeof length === 'string') { encoding = length; length = this.length - (offset || 0); }
		offset = offset === undefined ? 0 : offset >>> 0;
		var remaining = this.length - offset;
		length = length === undefined ? remaining : Math.min(remaining, length >>> 0);
		if (offset > this.length) throw codeError(RangeError, 'ERR_BUFFER_OUT_OF_BOUNDS', '"offset" is outside of buffer bounds');
		var encoded = bytes.encodeString(String(text), encoding);
		var count = Math.min(encoded.length, length);
		if (String(encoding || 'utf8').toLowerCase().replace('-', '') === 'utf8') {
			// Never write part of a character.
			while (count > 0 && count < encoded.length && (encoded[count] & 0xc0) === 0x80) count--;
		}
		Uint8Array.prototype.set.call(this, encoded.subarray(0, count), offset);
		return count;
	};
	proto.compare = function (target, targetStart, targetEnd, sourceStart, sourceEnd) {
		if (!(target instanceof Uint8Array)) throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "target" argument must be an instance of Buffer or Uint8Array.');
		var a = Uint8Array.prototype.subarray.call(this, sourceStart || 0, sourceEnd === undefined ? this.length : sourceEnd);
		var b = Uint8Array.prototype.subarray.call(target, targetStart || 0, targetEnd === undefined ? target.length : targetEnd);
		return Buffer.compare(a, b);
	};
	proto.equals = function (other) {
		if (!(other instanceof Uint8Array)) throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "otherBuffer" argument must be an instance of Buffer or Uint8Array.');
		return Buffer.compare(this, other) === 0;
	};
	function swapper(size) {
		return function () {
			if (this.length % size !== 0) throw codeError(RangeError, 'ERR_INVALID_BUFFER_SIZE', 'Buffer size must be a multiple of ' + (size * 8) + '-bits');
			for (var i = 0; i < this.length; i += size) {
				for (var j = 0; j < size / 2; j++) { var t = this[i + j]; this[i + j] = this[i + size - 1 - j]; this[i + size - 1 - j] = t; }
			}
			return this;
		};
	}
	proto.swap16 = swapper(2);
	proto.swap32 = swapper(4);
	proto.swap64 = swapper(8);
	proto.toLocaleString = proto.toString;
	// Node's per-encoding methods (libraries call them directly for speed).
	[['utf8', 'utf8'], ['latin1', 'latin1'], ['ascii', 'ascii'], ['base64', 'base64'], ['base64url', 'base64url'], ['hex', 'hex'], ['ucs2', 'utf16le']].forEach(function (entry) {
		proto[entry[0] + 'Slice'] = function (start, end) { return bytes.decodeBytes(Uint8Array.prototype.subarray.call(this, start || 0, end === undefined ? this.length : end), entry[1]); };
		proto[entry[0] + 'Write'] = function (text, offset, length) { return this.write(text, offset || 0, length === undefined ? this.length - (offset || 0) : length, entry[1]); };
	});
	proto.inspect = function () { var hex = bytes.toHex(this.subarray(0, 50)).replace(/(..)(?!$)/g, '$1 '); return '<Buffer ' + hex + (this.length > 50 ? ' ... ' + (this.length - 50) + ' more bytes' : '') + '>'; };
	Object.defineProperty(proto, 'parent', { get: function () { return this.buffer; }, configurable: true });
	Object.defineProperty(proto, 'offset', { get: function () { return this.byteOffset; }, configurable: true });

	var originalAlloc = Buffer.alloc;
	Buffer.alloc = function (size, fill, encoding) {
		if (typeof size !== 'number' || size < 0 || size !== size) throw codeError(RangeError, 'ERR_OUT_OF_RANGE', 'The value of "size" is out of range. It must be >= 0 && <= 9007199254740991. Received ' + size);
		var buffer = originalAlloc(size);
		if (fill !== undefined && fill !== 0 && size > 0) buffer.fill(fill, encoding);
		return buffer;
	};
	Buffer.allocUnsafe = function (size) { return Buffer.alloc(size); };
	Buffer.allocUnsafeSlow = Buffer.allocUnsafe;
	Buffer.poolSize = 8192;
	var originalFrom = Buffer.from;
	Buffer.from = function (value, encodingOrOffset, length) {
		if (value !== null && typeof value === 'object' && !(value instanceof ArrayBuffer) && !ArrayBuffer.isView(value) && !Array.isArray(value) && !(value.type === 'Buffer' && Array.isArray(value.data))) {
			if (typeof value.valueOf === 'function' && value.valueOf() !== value && (typeof value.valueOf() === 'string' || value.valueOf() instanceof ArrayBuffer)) return originalFrom(value.valueOf(), encodingOrOffset, length);
			if (typeof value[Symbol.toPrimitive] === 'function') return originalFrom(value[Symbol.toPrimitive]('string'), encodingOrOffset, length);
			if (typeof value.length === 'number') return originalFrom(Array.prototype.slice.call(value));
		}
		if (typeof SharedArrayBuffer === 'function' && value instanceof SharedArrayBuffer) return bytes.makeBuffer(new Uint8Array(value, encodingOrOffset || 0, length));
		return originalFrom(value, encodingOrOffset, length);
	};
	Buffer.of = function () { return Buffer.from(Array.prototype.slice.call(arguments)); };
	Buffer.copyBytesFrom = function (view, offset, length) {
		var source = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
		var unit = view.BYTES_PER_ELEMENT || 1;
		var start = (offset || 0) * unit;
		var end = length === undefined ? source.length : start + length * unit;
		return Buffer.from(source.slice(start, end));
	};
	var kMaxLength = 4294967296;
	function isUtf8(input) {
		var data = bytes.asBytes(input);
		for (var i = 0; i < data.length; ) {
			var byte = data[i];
			var size = byte < 0x80 ? 1 : byte >= 0xc2 && byte < 0xe0 ? 2 : byte >= 0xe0 && byte < 0xf0 ? 3 : byte >= 0xf0 && byte < 0xf5 ? 4 : 0;
			if (size === 0 || i + size > data.length) return false;
			for (var j = 1; j < size; j++) if ((data[i + j] & 0xc0) !== 0x80) return false;
			if (size === 3) { var code = ((byte & 15) << 12) | ((data[i + 1] & 63) << 6); if (code < 0x800 || (code >= 0xd800 && code <= 0xdfff)) return false; }
			if (size === 4) { var high = ((byte & 7) << 18) | ((data[i + 1] & 63) << 12); if (high < 0x10000 || high > 0x10ffff) return false; }
			i += size;
		}
		return true;
	}
	var bufferModule = {
		Buffer: Buffer,
		SlowBuffer: Buffer,
		kMaxLength: kMaxLength,
		kStringMaxLength: 536870888,
		constants: { MAX_LENGTH: kMaxLength, MAX_STRING_LENGTH: 536870888 },
		INSPECT_MAX_BYTES: 50,
		isUtf8: isUtf8,
		isAscii: function (input) { var data = bytes.asBytes(input); for (var i = 0; i < data.length; i++) if (data[i] > 127) return false; return true; },
		atob: globalThis.atob,
		btoa: globalThis.btoa,
		transcode: function (source, fromEncoding, toEncoding) { return Buffer.from(Buffer.from(source).toString(fromEncoding), toEncoding); }
	};
	globalThis.__threadlineDefineBuiltin('buffer', function () { return bufferModule; });
})();
`;
