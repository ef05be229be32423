import { env } from '$env/dynamic/private';
import type { ServerInit } from '@sveltejs/kit';
import { classService } from '../server/class-runtime.js';

/**
 * At server start (adapter-node runs this when server.js loads the handler): open class mode's
 * database and signing key when THREADLINE_CLASS_CODE and THREADLINE_INSTRUCTOR_TOKEN are set,
 * and print the witness public key. Off otherwise. Invalid class settings reject here, and the
 * server stops with that sentence and exit code 1 (server.js) instead of serving with class mode
 * silently off; a database that cannot be opened is printed and retried at the first class
 * request rather than keeping the IDE down.
 */
export const init: ServerInit = async () => {
	await classService(env);
};
