import { env } from '$env/dynamic/private';
import { handleClassRequest } from '../../../../../../../server/class-http.js';
import { classService } from '../../../../../../../server/class-runtime.js';
import type { RequestHandler } from './$types';

/** The class API (server/CONTEXT.md): GET where the server's copy of my ledger ends (learner token). */
export const GET: RequestHandler = async ({ request, params, getClientAddress }) =>
	handleClassRequest(
		await classService(env),
		request,
		{ name: 'head', ledger: params.ledger },
		getClientAddress()
	);
