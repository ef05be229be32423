const order = [];
setTimeout(() => order.push('timeout 20'), 20);
setTimeout(() => order.push('timeout 0'), 0);
setImmediate(() => order.push('immediate'));
Promise.resolve().then(() => order.push('microtask'));
process.nextTick(() => order.push('tick'));
queueMicrotask(() => order.push('queueMicrotask'));
let intervals = 0;
const interval = setInterval(() => {
	intervals += 1;
	if (intervals === 2) clearInterval(interval);
}, 5);
order.push('sync');
const { setTimeout: sleep } = await import('node:timers/promises');
await sleep(300);
console.log(
	order.filter((item) => item !== 'immediate' && item !== 'timeout 0').join(' '),
	intervals
);
console.log(order.includes('immediate'), order.includes('timeout 0'));
