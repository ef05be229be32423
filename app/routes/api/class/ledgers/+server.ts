import { env } from '$env/dynamic/private';
import { handleClassRequest } from '../../../../../server/class-http.js';
import { classService } from '../../../../../server/class-runtime.js';
import type { RequestHandler } from './$types';

/**
 * The class API (server/CONTEXT.md): GET every ledger of the class (instructor token); POST a
 * new ledger's birth certificate (learner token).
 */
export const POST: RequestHandler = async ({ request, getClientAddress }) =>
	handleClassRequest(await classService(env), request, { name: 'ledgers' }, getClientAddress());

export const GET: RequestHandler = async ({ request, getClientAddress }) =>
	handleClassRequest(await classService(env), request, { name: 'ledgers' }, getClientAddress());
