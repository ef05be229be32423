import { env } from '$env/dynamic/private';
import { handleClassRequest } from '../../../../../../server/class-http.js';
import { classService } from '../../../../../../server/class-runtime.js';
import type { RequestHandler } from './$types';

/** The class log (server/CONTEXT.md): GET the latest signed checkpoint (C2SP note, text/plain). */
export const GET: RequestHandler = async ({ request, getClientAddress }) =>
	handleClassRequest(
		await classService(env),
		request,
		{ name: 'log-checkpoint' },
		getClientAddress()
	);
