// node:crypto's digests beyond SHA-256: every supported name, every output and input encoding,
// HMAC with short and long keys, and the errors Node gives for misuse.
import { createHash, createHmac, getHashes, hash } from 'node:crypto';

const names = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'];
console.log(names.every((name) => getHashes().includes(name)));
let seed = 7;
const bytes = (length) =>
	Buffer.from(
		Array.from({ length }, () => (seed = (seed * 1103515245 + 12345) % 2147483648) & 255)
	);
for (const name of names) {
	for (const length of [0, 3, 55, 56, 64, 111, 112, 128, 300]) {
		console.log(name, length, createHash(name).update(bytes(length)).digest('hex'));
	}
	console.log(createHash(name).update('héllo ✓').digest('base64'));
	console.log(
		createHash(name).update('héllo', 'latin1').update('00ff10', 'hex').digest('base64url')
	);
	console.log(createHash(name).update('aGVsbG8=', 'base64').digest().length);
	console.log(
		createHash(name.toUpperCase()).update('x').digest('hex') ===
			createHash(name).update('x').digest('hex')
	);
	console.log(createHmac(name, 'key').update('message').digest('hex'));
	console.log(createHmac(name, bytes(200)).update(bytes(40)).digest('base64'));
	const running = createHash(name).update('part one ');
	const copy = running.copy();
	console.log(running.update('two').digest('hex') !== copy.update('three').digest('hex'));
}
console.log(hash('sha1', 'abc'));
const finished = createHash('md5');
finished.digest();
try {
	finished.update('more');
} catch (error) {
	console.log(error.code, error.message);
}
try {
	createHmac('nope', 'key');
} catch (error) {
	console.log(error.name, error.code, error.message);
}
try {
	createHash('nope');
	console.log('accepted');
} catch {
	console.log('refused');
}
const text = new TextEncoder().encode('web crypto');
for (const hash of ['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512']) {
	console.log(hash, Buffer.from(await crypto.subtle.digest(hash, text)).toString('hex'));
	const key = await crypto.subtle.importKey('raw', text, { name: 'HMAC', hash }, true, [
		'sign',
		'verify'
	]);
	const signature = await crypto.subtle.sign('HMAC', key, text);
	console.log(
		key.algorithm.hash.name,
		key.algorithm.length,
		Buffer.from(signature).toString('base64')
	);
	console.log(await crypto.subtle.verify('HMAC', key, signature, text));
	const generated = await crypto.subtle.generateKey({ name: 'HMAC', hash }, true, ['sign']);
	console.log(
		generated.algorithm.length,
		(await crypto.subtle.exportKey('raw', generated)).byteLength
	);
}
