import { classService } from '../class-runtime.js';
import { ltiConfigFromEnvironment } from './lti-config.js';
import { LtiTool } from './lti-tool.js';

let opening: Promise<LtiTool | null> | null = null;
const retryIntervalMs = 30_000;

/**
 * The app instance's LTI tool, opened once (null when LTI is off or class mode is off: launched
 * learners are class learners). Queued scores are retried every 30 s while the server runs.
 */
export function ltiTool(
	environment: Record<string, string | undefined> = process.env
): Promise<LtiTool | null> {
	if (opening) return opening;
	opening = (async () => {
		const config = ltiConfigFromEnvironment(environment);
		if (!config) return null;
		const service = await classService(environment);
		if (!service) {
			console.error('LTI is configured but class mode is off: set the class settings too');
			return null;
		}
		const tool = await LtiTool.open(config, service);
		console.log(
			`LTI 1.3: ${config.platforms.length} platform(s); tool JWKS at ${config.toolUrl}/api/lti/jwks`
		);
		setInterval(() => {
			tool.grades
				.retryDue()
				.catch((error: unknown) => console.warn(`LTI score retry: ${(error as Error).message}`));
		}, retryIntervalMs).unref();
		return tool;
	})().catch((error: unknown) => {
		console.error(`LTI could not start: ${(error as Error).message}`);
		opening = null;
		return null;
	});
	return opening;
}
