import { env } from '$env/dynamic/private';
import { ltiRoute } from '../../../../../server/lti/lti-route.js';
import type { RequestHandler } from './$types';

/** LTI 1.3 (jwks): wired to server/lti (README "Grades in your LMS"). */
export const GET: RequestHandler = (event) => ltiRoute(event, env, 'jwks');
