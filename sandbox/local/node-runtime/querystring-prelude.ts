/**
 * `node:querystring` for the offline runtime: parse/decode (separators, `=`, maxKeys, custom
 * decodeURIComponent, `+` as space, repeated keys as arrays, a null-prototype result) and
 * stringify/encode (arrays repeated, numbers/booleans/bigints written, other values empty), escape
 * and unescape, as Node's. Plain ES2020 in a string.
 */
export const querystringPrelude = String.raw`
(function () {
	'use strict';
	function unescape(text) {
		try { return decodeURIComponent(text); } catch (error) {
			return text.replace(/%([0-9a-fA-F]{2})/g, function (match, hex) { return String.fromCharCode(parseInt(hex, 16)); });
		}
	}
	function escape(text) {
		return encodeURIComponent(text).replace(/[!'()*]/g, function (character) { return '%' + character.charCodeAt(0).toString(16).toUpperCase(); });
	}
	function parse(text, sep, eq, options) {
		var result = Object.create(null);
		if (typeof text !== 'string' || text.length === 0) return result;
		sep = sep || '&';
		eq = eq || '=';
		var maxKeys = options && typeof options.maxKeys === 'number' ? options.maxKeys : 1000;
		var decode = (options && options.decodeURIComponent) || unescape;
		var pairs = text.split(sep);
		if (maxKeys > 0 && pairs.length > maxKeys) pairs = pairs.slice(0, maxKeys);
		pairs.forEach(function (pair) {
			if (pair === '' && pairs.length > 1) return;
			var index = pair.indexOf(eq);
			var rawKey = index === -1 ? pair : pair.slice(0, index);
			var rawValue = index === -1 ? '' : pair.slice(index + eq.length);
			var key = decode(rawKey.replace(/\+/g, ' '));
			var value = decode(rawValue.replace(/\+/g, ' '));
			if (!(key in result)) result[key] = value;
			else if (Array.isArray(result[key])) result[key].push(value);
			else result[key] = [result[key], value];
		});
		return result;
	}
	function primitive(value) {
		if (typeof value === 'string') return value;
		if ((typeof value === 'number' && isFinite(value)) || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
		return '';
	}
	function stringify(object, sep, eq, options) {
		sep = sep || '&';
		eq = eq || '=';
		var encode = (options && options.encodeURIComponent) || escape;
		if (object === null || typeof object !== 'object') return '';
		return Object.keys(object).map(function (key) {
			var value = object[key];
			var name = encode(primitive(key)) + eq;
			if (Array.isArray(value)) return value.map(function (item) { return name + encode(primitive(item)); }).join(sep);
			return name + encode(primitive(value));
		}).filter(Boolean).join(sep);
	}
	var querystring = { parse: parse, decode: parse, stringify: stringify, encode: stringify, escape: escape, unescape: unescape, unescapeBuffer: function (text) { return Buffer.from(unescape(String(text)), 'latin1'); } };
	globalThis.__threadlineDefineBuiltin('querystring', function () { return querystring; });
})();
`;
