import { classConfigFromEnvironment } from './class-config.js';
import { ClassService } from './class-service.js';

let opening: Promise<ClassService | null> | null = null;

/** Class mode's settings, or a sentence saying which setting is wrong and what to do. */
export class ClassSettingsError extends Error {
	constructor(reason: string) {
		super(
			`Class mode settings are invalid: ${reason}. The server did not start: fix the setting, or unset THREADLINE_CLASS_CODE and THREADLINE_INSTRUCTOR_TOKEN to run without class mode.`
		);
		this.name = 'ClassSettingsError';
	}
}

/**
 * The app instance's class service, opened once from the environment (null when class mode is
 * off). Invalid settings reject with a ClassSettingsError: app/hooks.server.ts awaits this at
 * start, so the server stops with that sentence instead of serving with class mode silently off.
 * A failed open (the database) is logged and retried at the next call, so a database that was
 * briefly unreachable at start does not need a restart.
 */
export function classService(
	environment: Record<string, string | undefined> = process.env
): Promise<ClassService | null> {
	if (opening) return opening;
	let config;
	try {
		config = classConfigFromEnvironment(environment);
	} catch (error) {
		return Promise.reject(new ClassSettingsError((error as Error).message));
	}
	if (!config) {
		opening = Promise.resolve(null);
		return opening;
	}
	const started = performance.now();
	opening = ClassService.open(config).then(
		(service) => {
			const where = config.databaseUrl
				? 'PostgreSQL (DATABASE_URL)'
				: `the embedded database in ${config.dataDirectory}`;
			console.log(
				`Class mode: class ${service.classId}, ${where}, opened in ${Math.round(performance.now() - started)} ms`
			);
			console.log(`Class witness public key (Ed25519, base64): ${service.publicKey}`);
			const close = () => void service.close().catch(() => undefined);
			process.once('beforeExit', close);
			return service;
		},
		(error: unknown) => {
			console.error(`class mode could not start: ${(error as Error).message}`);
			opening = null;
			return null;
		}
	);
	return opening;
}
