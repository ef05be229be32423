const order = [];
setTimeout(() => order.push('timeout 20'), 20);
setTimeout(() => order.push('timeout 0'), 0);
setImmediate(() => order.push('immediate'));
Promise.resolve().then(() => order.push('microtask'));
process.nextTick(() => order.push('tick'));
queueMicrotask(() => order.push('queueMicrotask'));
const interval = setInterval(() => {
	order.push('interval');
	if (order.filter((item) => item === 'interval').length === 2) clearInterval(interval);
}, 5);
order.push('sync');
const { setTimeout: sleep } = await import('node:timers/promises');
await sleep(50);
console.log(order.filter((item) => item !== 'immediate' && item !== 'timeout 0').join(' '));
console.log(order.includes('immediate'), order.includes('timeout 0'));
