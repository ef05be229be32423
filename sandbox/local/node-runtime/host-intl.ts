/**
 * `Intl` for the offline runtime, which QuickJS builds without: the VM's Intl objects keep their
 * locales and options and ask the host's own `Intl` (the browser's, or Node's) for each result, so
 * numbers, dates, plural categories and collation come out as the host formats them instead of a
 * hand-written partial imitation. Requests and answers cross as JSON; errors (a bad locale or
 * option) come back as values and are thrown in the VM as the RangeError/TypeError Node gives.
 */

const kinds = {
	NumberFormat: Intl.NumberFormat,
	DateTimeFormat: Intl.DateTimeFormat,
	Collator: Intl.Collator,
	PluralRules: Intl.PluralRules,
	RelativeTimeFormat: Intl.RelativeTimeFormat,
	ListFormat: Intl.ListFormat
} as const;

type IntlKind = keyof typeof kinds;

export type IntlRequest = {
	kind: string;
	locales?: string | string[];
	options?: Record<string, unknown>;
	method: 'format' | 'formatToParts' | 'resolvedOptions' | 'compare' | 'select';
	arguments?: unknown[];
};

export type IntlAnswer = { value: unknown } | { error: { name: string; message: string } };

/** Formatters are costly to build; programs reuse a few, so the last ones built are kept. */
const cache = new Map<string, object>();
const cacheLimit = 64;

export function answerIntlRequest(request: IntlRequest): IntlAnswer {
	try {
		if (!Object.hasOwn(kinds, request.kind))
			throw new TypeError(`Intl.${request.kind} is not supported`);
		const kind = request.kind as IntlKind;
		const key = JSON.stringify([kind, request.locales, request.options]);
		let formatter = cache.get(key) as Record<string, (...values: unknown[]) => unknown> | undefined;
		if (!formatter) {
			const Constructor = kinds[kind] as unknown as new (
				locales?: string | string[],
				options?: Record<string, unknown>
			) => Record<string, (...values: unknown[]) => unknown>;
			formatter = new Constructor(request.locales, request.options);
			if (cache.size >= cacheLimit) cache.delete(cache.keys().next().value as string);
			cache.set(key, formatter);
		}
		const method = formatter[request.method];
		if (typeof method !== 'function') {
			throw new TypeError(`Intl.${kind}.prototype.${request.method} is not supported`);
		}
		const values = (request.arguments ?? []).map(reviveArgument);
		return { value: method.apply(formatter, values) };
	} catch (error) {
		const known = error instanceof RangeError || error instanceof TypeError;
		return {
			error: {
				name: known ? error.name : 'RangeError',
				message: error instanceof Error ? error.message : String(error)
			}
		};
	}
}

/** What JSON cannot carry crosses wrapped: dates, bigints, NaN/±Infinity and undefined. */
function reviveArgument(value: unknown): unknown {
	if (value && typeof value === 'object') {
		if ('undefined' in value) return undefined;
		if ('number' in value) return Number(value.number);
		if ('date' in value) return new Date(Number(value.date));
		if ('bigint' in value) return BigInt(String(value.bigint));
	}
	return value;
}
