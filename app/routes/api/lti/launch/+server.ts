import { env } from '$env/dynamic/private';
import { ltiRoute } from '../../../../../server/lti/lti-route.js';
import type { RequestHandler } from './$types';

/** LTI 1.3 (launch): wired to server/lti (README "Grades in your LMS"). */
export const POST: RequestHandler = (event) => ltiRoute(event, env, 'launch');
