import { env } from '$env/dynamic/private';
import { handleClassRequest } from '../../../../../../../server/class-http.js';
import { classService } from '../../../../../../../server/class-runtime.js';
import type { RequestHandler } from './$types';

/**
 * The class API (server/CONTEXT.md): POST a learner's new events (learner token) → a signed
 * receipt; GET the server's copy of the ledger (instructor token).
 */
const handle: RequestHandler = async ({ request, params, getClientAddress }) =>
	handleClassRequest(
		await classService(env),
		request,
		{ name: 'events', ledger: params.ledger },
		getClientAddress()
	);

export const GET = handle;
export const POST = handle;
