import { scenarioIndexSchema } from '../../hooks/scenarios/scenario-index.js';
import { ltiTool } from './lti-runtime.js';
import type { LtiRoute } from './lti-tool.js';

/**
 * One LTI route of the app (app/routes/api/lti/*): the tool opened from the environment, the
 * built-in scenarios read from the app's own /scenarios/index.json.
 */
export async function ltiRoute(
	event: { request: Request; fetch: typeof fetch },
	environment: Record<string, string | undefined>,
	route: LtiRoute
): Promise<Response> {
	const tool = await ltiTool(environment);
	if (!tool) {
		return new Response('LTI is off on this server (README: "Grades in your LMS (LTI 1.3)").', {
			status: 404,
			headers: { 'content-type': 'text/plain; charset=utf-8' }
		});
	}
	return tool.handle(event.request, route, async () => {
		const response = await event.fetch('/scenarios/index.json');
		if (!response.ok) return [];
		const parsed = scenarioIndexSchema.safeParse(await response.json());
		return parsed.success ? parsed.data.scenarios.map(({ id, title }) => ({ id, title })) : [];
	});
}
