// Plain JavaScript: server.js (run by node without a build) and class-config.ts share it, so the
// body limit adapter-node enforces and the one the class API enforces and advertises are one.

/** The class API's default largest request body (THREADLINE_CLASS_MAX_BODY_BYTES). */
export const defaultClassMaxBodyBytes = 4 * 1024 * 1024;

/** /api/chat's default cap (THREADLINE_CHAT_MAX_BYTES; app/lib/agent/chat-request-guard.ts). */
const defaultChatMaxBytes = 1024 * 1024;

/**
 * A size in bytes read as adapter-node 5 reads BODY_SIZE_LIMIT (its `parse_as_bytes`): a number
 * with an optional K, M or G suffix (binary: 1K = 1024), or `Infinity`; NaN when it is not one.
 * @param {string} text
 * @returns {number}
 */
export function parseByteSize(text) {
	const unit = text.trim().slice(-1).toUpperCase();
	const multiplier = unit === 'K' ? 1024 : unit === 'M' ? 1024 ** 2 : unit === 'G' ? 1024 ** 3 : 1;
	const number = Number(multiplier === 1 ? text : text.trim().slice(0, -1));
	return text.trim() === '' ? Number.NaN : Math.floor(number * multiplier);
}

/**
 * The BODY_SIZE_LIMIT server.js gives adapter-node when none is set: the largest body one of the
 * app's own routes accepts (the class API in class mode, /api/chat), so adapter-node's default
 * of 512 KiB never refuses a body a route would take. Each route still enforces its own cap.
 * A setting that does not parse is left to the route's own check, which says what is wrong.
 * @param {Record<string, string | undefined>} environment
 * @returns {number}
 */
export function bodySizeLimitFor(environment) {
	const positive = (/** @type {string | undefined} */ text, /** @type {number} */ fallback) => {
		const value = text === undefined || text.trim() === '' ? Number.NaN : parseByteSize(text);
		return Number.isFinite(value) && value > 0 ? value : fallback;
	};
	const chat = positive(environment.THREADLINE_CHAT_MAX_BYTES, defaultChatMaxBytes);
	const classMode = Boolean(
		environment.THREADLINE_CLASS_CODE?.trim() || environment.THREADLINE_INSTRUCTOR_TOKEN?.trim()
	);
	if (!classMode) return chat;
	return Math.max(
		chat,
		positive(environment.THREADLINE_CLASS_MAX_BODY_BYTES, defaultClassMaxBodyBytes)
	);
}
