const encoder = new TextEncoder();

/**
 * Salted SHA-256, enough to show the idea. Real systems use a slow key-derivation function
 * (scrypt, Argon2, PBKDF2 with many rounds) so a stolen table cannot be brute-forced quickly.
 */
export async function hashPassword(password: string, salt: string): Promise<string> {
	const digest = await crypto.subtle.digest('SHA-256', encoder.encode(`${salt}:${password}`));
	return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

export async function verifyPassword(
	password: string,
	salt: string,
	expectedHash: string
): Promise<boolean> {
	return constantTimeEqual(await hashPassword(password, salt), expectedHash);
}

/** Compares every character, so the time taken does not reveal how much of a guess was right. */
function constantTimeEqual(left: string, right: string): boolean {
	if (left.length !== right.length) return false;
	let difference = 0;
	for (let index = 0; index < left.length; index++) {
		difference |= left.charCodeAt(index) ^ right.charCodeAt(index);
	}
	return difference === 0;
}
