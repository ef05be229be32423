function explode(value) {
	if (value > 2) throw new RangeError(`too big: ${value}`);
	return explode(value + 1);
}
console.log('before');
explode(0);
console.log('never');
