// Intl as Node has it (the offline runtime asks its host's Intl): numbers, dates, plurals,
// collation, lists and relative times, the toLocaleString family, and Node's errors.
console.log(typeof Intl, Object.prototype.toString.call(Intl));
const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
console.log(number.format(1234567.891), [1, 22.5, 1000].map(number.format).join(' '));
console.log(new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(1234.5));
console.log(new Intl.NumberFormat('en-US', { style: 'percent' }).format(0.256));
console.log(new Intl.NumberFormat().format(NaN), new Intl.NumberFormat().format(-Infinity));
console.log(new Intl.NumberFormat('en-US').format(12345678901234567890n));
console.log(JSON.stringify(new Intl.NumberFormat('en-US').formatToParts(-1234.5)));
console.log(new Intl.NumberFormat('en-US').resolvedOptions().maximumFractionDigits);
console.log(
	(1234.5).toLocaleString(),
	(1234.5).toLocaleString('fr-FR'),
	10n.toLocaleString('en-US')
);
const when = new Date(Date.UTC(2024, 1, 29, 13, 5, 9));
const utc = new Intl.DateTimeFormat('en-US', {
	timeZone: 'UTC',
	dateStyle: 'full',
	timeStyle: 'long'
});
console.log(utc.format(when));
console.log(when.toLocaleString('en-GB', { timeZone: 'UTC' }));
console.log(
	when.toLocaleDateString('en-US', { timeZone: 'UTC' }),
	when.toLocaleTimeString('en-US', { timeZone: 'UTC' })
);
console.log(when.toLocaleDateString('en-US', { timeZone: 'UTC', month: 'long' }));
console.log(new Date(NaN).toLocaleString(), typeof new Intl.DateTimeFormat().format());
console.log(typeof new Intl.DateTimeFormat().resolvedOptions().timeZone);
console.log(
	new Intl.PluralRules('en-US').select(1),
	new Intl.PluralRules('en-US', { type: 'ordinal' }).select(2)
);
console.log(['b', 'a', 'C'].sort(new Intl.Collator('en').compare).join(''));
console.log(new Intl.ListFormat('en', { type: 'conjunction' }).format(['a', 'b', 'c']));
console.log(new Intl.RelativeTimeFormat('en', { numeric: 'auto' }).format(-1, 'day'));
try {
	new Intl.NumberFormat('en-US', { style: 'currency' });
} catch (error) {
	console.log(error.name);
}
try {
	new Intl.NumberFormat('not a locale!');
} catch (error) {
	console.log(error.name);
}
