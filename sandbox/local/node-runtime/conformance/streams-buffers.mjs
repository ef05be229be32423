// node:stream, string_decoder, querystring, Buffer methods and events (issue 30).
import { Readable, Writable, Transform, PassThrough, pipeline } from 'node:stream';
import { pipeline as pipelinePromise } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import querystring from 'node:querystring';
import { EventEmitter, once, on } from 'node:events';
import { createRequire } from 'node:module';
import { types, MIMEType } from 'node:util';

const order = [];
const upper = new Transform({
	transform(chunk, encoding, callback) {
		callback(null, String(chunk).toUpperCase());
	}
});
const collected = [];
const sink = new Writable({
	write(chunk, encoding, callback) {
		collected.push(String(chunk));
		callback();
	}
});
sink.on('finish', () => order.push('finish'));
pipeline(Readable.from(['a', 'b', 'c']), upper, sink, (error) => {
	order.push('pipeline done');
	console.log('pipeline', error ?? null, collected.join(''), order.join(','));
});

const through = new PassThrough();
through.setEncoding('utf8');
let text = '';
through.on('data', (chunk) => (text += chunk));
through.on('end', () => console.log('passthrough', JSON.stringify(text)));
through.write(Buffer.from([0xe2, 0x82]));
through.end(Buffer.from([0xac, 0x21]));

const slow = new Writable({
	highWaterMark: 2,
	write(chunk, encoding, callback) {
		setTimeout(callback, 1);
	}
});
console.log('backpressure', slow.write('abc'), slow.writableNeedDrain);
slow.on('drain', () => console.log('drain'));

await pipelinePromise(
	Readable.from(['x']),
	new PassThrough(),
	new Writable({ write: (c, e, cb) => cb() })
);
console.log('stream/promises ok');

const decoder = new StringDecoder('utf8');
const euro = Buffer.from('€');
console.log('decoder', decoder.write(euro.subarray(0, 1)) + '|' + decoder.write(euro.subarray(1)));

const buffer = Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]);
console.log(
	'buffer',
	buffer.readUInt16LE(1),
	buffer.readInt32BE(0),
	buffer.readUIntBE(1, 3),
	buffer.indexOf(4),
	buffer.lastIndexOf(Buffer.from([7, 8])),
	buffer.includes('x')
);
const copy = Buffer.alloc(4);
buffer.copy(copy, 1, 2, 5);
console.log(
	'copy',
	[...copy],
	Buffer.from('hé', 'utf16le').toString('hex'),
	Buffer.from('6869', 'hex').toString('latin1')
);
console.log('fill', [...Buffer.alloc(5).fill('ab')], Buffer.alloc(4).writeUInt32BE(0xdeadbeef, 0));

console.log(
	'querystring',
	querystring.stringify({ a: [1, 2], b: 'x y' }),
	JSON.stringify(querystring.parse('a=1&a=2&b=%20'))
);

const emitter = new EventEmitter();
setTimeout(() => emitter.emit('ready', 42), 1);
console.log('once', await once(emitter, 'ready'));
setTimeout(() => {
	emitter.emit('tick', 1);
	emitter.emit('tick', 2);
}, 1);
const ticks = [];
for await (const [value] of on(emitter, 'tick')) {
	ticks.push(value);
	if (ticks.length === 2) break;
}
console.log('on', ticks, emitter.listenerCount('tick'));

const controller = new AbortController();
controller.signal.addEventListener('abort', () =>
	console.log('aborted', controller.signal.reason.name)
);
controller.abort();

const require = createRequire(import.meta.url);
console.log(
	'createRequire',
	typeof require('node:path').join,
	types.isPromise(Promise.resolve()),
	types.isUint8Array(buffer)
);
const mime = new MIMEType('text/html; charset=UTF-8');
console.log('mime', mime.essence, mime.params.get('charset'), String(mime));
process.on('custom', (value) => console.log('process event', value));
process.emit('custom', 'seen');
const error = new Error('boom');
console.log('stack header', error.stack.split('\n')[0]);
const target = {};
Error.captureStackTrace(target);
console.log('captureStackTrace', typeof target.stack);
