const original = {
	date: new Date(0),
	list: [1, { deep: true }],
	map: new Map([['k', new Set([1])]])
};
const copy = structuredClone(original);
console.log(
	copy !== original,
	copy.list[1] !== original.list[1],
	copy.date.getTime(),
	copy.map.get('k').has(1)
);
try {
	structuredClone({ fn() {} });
} catch (error) {
	console.log(error.name);
}
const buffer = Buffer.from('héllo');
console.log(
	buffer.length,
	buffer.toString('base64'),
	buffer.toString('hex'),
	Buffer.isBuffer(buffer)
);
console.log(
	Buffer.concat([Buffer.from('a'), Buffer.from('b')]).toString(),
	Buffer.from('YWI=', 'base64').toString()
);
console.log(JSON.stringify(Buffer.from([1, 2])), Buffer.byteLength('✓'), Buffer.alloc(3).join(''));
const { EventEmitter } = await import('node:events');
const emitter = new EventEmitter();
emitter.once('ping', (value) => console.log('ping', value));
emitter.emit('ping', 1);
console.log(emitter.emit('ping', 2), emitter.listenerCount('ping'));
const util = await import('node:util');
console.log(util.format('%s = %d', 'x', 42), util.inspect({ a: [1, 2] }));
console.log(typeof globalThis, typeof global, typeof queueMicrotask, typeof performance.now());
