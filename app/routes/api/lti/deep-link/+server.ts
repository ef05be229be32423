import { env } from '$env/dynamic/private';
import { ltiRoute } from '../../../../../server/lti/lti-route.js';
import type { RequestHandler } from './$types';

/** LTI 1.3 (deep-link): wired to server/lti (README "Grades in your LMS"). */
export const POST: RequestHandler = (event) => ltiRoute(event, env, 'deep-link');
