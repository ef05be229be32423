/**
 * `node:string_decoder` for the offline runtime: StringDecoder keeps the bytes of a character
 * split across chunks (UTF-8, UTF-16LE, base64's 3-byte groups) until the rest arrives, as
 * Node's does; `end()` flushes what is left (an incomplete UTF-8 sequence as U+FFFD). Other
 * encodings (hex, latin1, ascii) decode chunk by chunk. Evaluated after buffer-prelude.ts.
 * Plain ES2020 in a string.
 */
export const stringDecoderPrelude = String.raw`
(function () {
	'use strict';
	function normalize(encoding) {
		var name = String(encoding === undefined || encoding === null ? 'utf8' : encoding).toLowerCase();
		switch (name) {
			case 'utf8': case 'utf-8': return 'utf8';
			case 'ucs2': case 'ucs-2': case 'utf16le': case 'utf-16le': return 'utf16le';
			case 'latin1': case 'binary': return 'latin1';
			case 'base64': case 'base64url': case 'ascii': case 'hex': return name;
			default: return null;
		}
	}
	function StringDecoder(encoding) {
		var normalized = normalize(encoding);
		if (normalized === null) {
			var error = new TypeError('Unknown encoding: ' + encoding);
			error.code = 'ERR_UNKNOWN_ENCODING';
			throw error;
		}
		this.encoding = normalized;
		this.lastChar = Buffer.alloc(4);
		this.lastNeed = 0;
		this.lastTotal = 0;
		this._pending = Buffer.alloc(0);
	}
	// How many bytes of the tail of buf belong to a character that is not complete yet.
	function incompleteUtf8Tail(buf) {
		for (var back = 1; back <= Math.min(3, buf.length); back += 1) {
			var byte = buf[buf.length - back];
			if ((byte & 0xc0) === 0x80) continue;
			var need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
			return need > back ? back : 0;
		}
		return 0;
	}
	StringDecoder.prototype.write = function (chunk) {
		if (typeof chunk === 'string') return chunk;
		var bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer ? new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength) : chunk);
		if (this._pending.length) bytes = Buffer.concat([this._pending, bytes]);
		var keep = 0;
		if (this.encoding === 'utf8') keep = incompleteUtf8Tail(bytes);
		else if (this.encoding === 'utf16le') {
			keep = bytes.length % 2;
			if (keep === 0 && bytes.length >= 2) {
				var last = bytes[bytes.length - 2] | (bytes[bytes.length - 1] << 8);
				if (last >= 0xd800 && last <= 0xdbff) keep = 2;
			}
		} else if (this.encoding === 'base64' || this.encoding === 'base64url') keep = bytes.length % 3;
		this._pending = keep ? Buffer.from(bytes.subarray(bytes.length - keep)) : Buffer.alloc(0);
		this.lastNeed = keep;
		return bytes.toString(this.encoding, 0, bytes.length - keep);
	};
	StringDecoder.prototype.end = function (chunk) {
		var out = chunk === undefined ? '' : this.write(chunk);
		if (this._pending.length) {
			out += this.encoding === 'utf8' ? '\ufffd' : this._pending.toString(this.encoding);
			this._pending = Buffer.alloc(0);
			this.lastNeed = 0;
		}
		return out;
	};
	StringDecoder.prototype.text = function (buf, offset) { return this.write(buf.subarray(offset)); };
	globalThis.__threadlineDefineBuiltin('string_decoder', function () { return { StringDecoder: StringDecoder }; });
})();
`;
