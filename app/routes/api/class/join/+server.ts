import { env } from '$env/dynamic/private';
import { handleClassRequest } from '../../../../../server/class-http.js';
import { classService } from '../../../../../server/class-runtime.js';
import type { RequestHandler } from './$types';

/** The class API (server/CONTEXT.md): POST {code, name} → {token}. */
export const POST: RequestHandler = async ({ request, getClientAddress }) =>
	handleClassRequest(await classService(env), request, { name: 'join' }, getClientAddress());
