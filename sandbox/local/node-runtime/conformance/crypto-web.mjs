const encoder = new TextEncoder();
const digest = await crypto.subtle.digest('SHA-256', encoder.encode('hello'));
console.log(Buffer.from(digest).toString('hex'));
const key = await crypto.subtle.importKey(
	'raw',
	encoder.encode('secret'),
	{ name: 'HMAC', hash: 'SHA-256' },
	false,
	['sign', 'verify']
);
const signature = await crypto.subtle.sign('HMAC', key, encoder.encode('message'));
console.log(Buffer.from(signature).toString('base64url'));
console.log(await crypto.subtle.verify('HMAC', key, signature, encoder.encode('message')));
console.log(await crypto.subtle.verify('HMAC', key, signature, encoder.encode('other')));
const random = crypto.getRandomValues(new Uint8Array(16));
console.log(random.length, /^[0-9a-f-]{36}$/.test(crypto.randomUUID()));
const { createHash, createHmac, randomBytes, timingSafeEqual } = await import('node:crypto');
console.log(createHash('sha256').update('a').update('b').digest('hex'));
console.log(createHmac('sha256', 'k').update('data').digest('base64'));
console.log(randomBytes(8).length, timingSafeEqual(Buffer.from('ab'), Buffer.from('ab')));
console.log(new TextDecoder().decode(encoder.encode('héllo ✓ 𝄞')));
console.log(btoa('hi there'), atob('aGkgdGhlcmU='));
const long = await crypto.subtle.digest('SHA-256', new Uint8Array(1000).fill(97));
console.log(Buffer.from(long).toString('hex').slice(0, 16));
