import { readFileSync } from 'node:fs';

let cached: string | null = null;

/** Threadline's version from package.json, recorded as the trace records' `tool.version`. */
export function packageVersion(): string {
	cached ??= (
		JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
			version: string;
		}
	).version;
	return cached;
}
