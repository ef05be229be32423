import { env } from '$env/dynamic/private';
import { handleClassRequest } from '../../../../../../../server/class-http.js';
import { classService } from '../../../../../../../server/class-runtime.js';
import type { RequestHandler } from './$types';

/**
 * The class API (server/CONTEXT.md): GET the server's in-toto attestation of its copy of a
 * ledger, a DSSE envelope signed with the class key (instructor token).
 */
export const GET: RequestHandler = async ({ request, params, getClientAddress }) =>
	handleClassRequest(
		await classService(env),
		request,
		{ name: 'attestation', ledger: params.ledger },
		getClientAddress()
	);
