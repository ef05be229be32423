/**
 * `Intl` in the offline runtime (QuickJS is built without it): NumberFormat, DateTimeFormat,
 * Collator, PluralRules, RelativeTimeFormat and ListFormat objects that keep their locales and
 * options and let the host's Intl compute every result (host-intl.ts), plus Number/BigInt/Date
 * `toLocaleString` (and Date's toLocaleDateString/TimeString) through them. Partial on purpose:
 * no Segmenter, DisplayNames, supportedLocalesOf or getCanonicalLocales; String's localeCompare
 * stays QuickJS's. Evaluated before runtime-prelude.ts, which removes the host object.
 */
export const intlPrelude = String.raw`
(function () {
	'use strict';
	if (typeof globalThis.Intl !== 'undefined') return;
	var host = globalThis.__threadlineNodeHost;
	function encode(value) {
		if (value instanceof Date) return { date: value.getTime() };
		if (typeof value === 'bigint') return { bigint: String(value) };
		if (typeof value === 'number' && !isFinite(value)) return { number: String(value) };
		if (value === undefined) return { undefined: true };
		return value;
	}
	function ask(kind, locales, options, method, args) {
		var answer = JSON.parse(host.intl(JSON.stringify({ kind: kind, locales: locales, options: options, method: method, arguments: args.map(encode) })));
		if (answer.error) throw new (answer.error.name === 'TypeError' ? TypeError : RangeError)(answer.error.message);
		return answer.value;
	}
	function copyOptions(options) {
		if (options === undefined) return undefined;
		if (options === null) throw new TypeError('Cannot convert undefined or null to object');
		return JSON.parse(JSON.stringify(options));
	}
	function makeKind(kind, methods, boundMethods) {
		function IntlObject(locales, options) {
			if (!(this instanceof IntlObject)) return new IntlObject(locales, options);
			Object.defineProperty(this, '__locales', { value: locales === undefined ? undefined : typeof locales === 'string' ? locales : Array.prototype.slice.call(locales) });
			Object.defineProperty(this, '__options', { value: copyOptions(options) });
			// Asked once now, so a bad locale or option throws at construction, as in Node.
			Object.defineProperty(this, '__resolved', { value: ask(kind, this.__locales, this.__options, 'resolvedOptions', []) });
		}
		Object.defineProperty(IntlObject, 'name', { value: kind });
		IntlObject.prototype.resolvedOptions = function () { return Object.assign({}, this.__resolved); };
		methods.forEach(function (name) {
			IntlObject.prototype[name] = function () { return ask(kind, this.__locales, this.__options, name, Array.prototype.slice.call(arguments)); };
		});
		// format and compare are bound getters in Node, so "values.map(formatter.format)" works.
		boundMethods.forEach(function (name) {
			Object.defineProperty(IntlObject.prototype, name, {
				configurable: true,
				get: function () {
					var self = this;
					return function () { return ask(kind, self.__locales, self.__options, name, Array.prototype.slice.call(arguments)); };
				}
			});
		});
		Object.defineProperty(IntlObject.prototype, Symbol.toStringTag, { value: 'Intl.' + kind, configurable: true });
		return IntlObject;
	}
	var Intl = {
		NumberFormat: makeKind('NumberFormat', ['formatToParts'], ['format']),
		DateTimeFormat: makeKind('DateTimeFormat', ['formatToParts'], ['format']),
		Collator: makeKind('Collator', [], ['compare']),
		PluralRules: makeKind('PluralRules', ['select'], []),
		RelativeTimeFormat: makeKind('RelativeTimeFormat', ['format', 'formatToParts'], []),
		ListFormat: makeKind('ListFormat', ['format', 'formatToParts'], [])
	};
	Object.defineProperty(Intl, Symbol.toStringTag, { value: 'Intl', configurable: true });
	Object.defineProperty(globalThis, 'Intl', { value: Intl, writable: true, configurable: true });

	function define(prototype, name, implementation) {
		Object.defineProperty(prototype, name, { value: implementation, writable: true, configurable: true });
	}
	define(Number.prototype, 'toLocaleString', function (locales, options) {
		return new Intl.NumberFormat(locales, options).format(Number.prototype.valueOf.call(this));
	});
	define(BigInt.prototype, 'toLocaleString', function (locales, options) {
		return new Intl.NumberFormat(locales, options).format(BigInt.prototype.valueOf.call(this));
	});
	var dateFields = ['weekday', 'year', 'month', 'day', 'dayPeriod', 'hour', 'minute', 'second', 'fractionalSecondDigits', 'dateStyle', 'timeStyle'];
	// ECMA-402's ToDateTimeOptions: with no date or time field asked for, the method's defaults.
	function dateOptions(options, date, time) {
		var copy = copyOptions(options) || {};
		var given = dateFields.some(function (field) { return copy[field] !== undefined; });
		if (!given) {
			if (date) { copy.year = 'numeric'; copy.month = 'numeric'; copy.day = 'numeric'; }
			if (time) { copy.hour = 'numeric'; copy.minute = 'numeric'; copy.second = 'numeric'; }
		}
		return copy;
	}
	function localeDate(date, time) {
		return function (locales, options) {
			var value = Date.prototype.getTime.call(this);
			if (value !== value) return 'Invalid Date';
			return new Intl.DateTimeFormat(locales, dateOptions(options, date, time)).format(value);
		};
	}
	define(Date.prototype, 'toLocaleString', localeDate(true, true));
	define(Date.prototype, 'toLocaleDateString', localeDate(true, false));
	define(Date.prototype, 'toLocaleTimeString', localeDate(false, true));
})();
`;
