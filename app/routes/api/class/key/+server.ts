import { env } from '$env/dynamic/private';
import { handleClassRequest } from '../../../../../server/class-http.js';
import { classService } from '../../../../../server/class-runtime.js';
import type { RequestHandler } from './$types';

/** The class API (server/CONTEXT.md): GET the class id and its witness public key. */
export const GET: RequestHandler = async ({ request, getClientAddress }) =>
	handleClassRequest(await classService(env), request, { name: 'key' }, getClientAddress());
