import { basename } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { ledgerToOtlp } from '../../hooks/telemetry/otlp-genai.js';
import { packageVersion } from './package-version.js';
import { parseArguments } from './parse-arguments.js';
import { readVerifiedEvents } from './transcript-command.js';
import { UsageError } from './usage-error.js';

type Output = { out: (text: string) => void; err: (text: string) => void };

/**
 * `threadline otel <export> [--out file.json]`: the session as OTLP/JSON traces (GenAI semantic
 * conventions, hooks/telemetry/otlp-genai.ts), for an OpenTelemetry collector's file receiver or
 * an OTLP/HTTP endpoint (`curl -H 'Content-Type: application/json' --data @file …/v1/traces`).
 * Opt-in: nothing is sent anywhere. An export that fails verify is refused (exit 1): telemetry
 * should not carry a history nobody can vouch for.
 */
export async function otelCommand(argv: string[], output: Output): Promise<number> {
	const { positional, values } = parseArguments(argv, { values: ['out'] });
	const [source, extra] = positional;
	if (!source || extra !== undefined)
		throw new UsageError('otel needs exactly one export (a folder or a .zip)');
	const { report, events } = await readVerifiedEvents(source);
	if (!report.ok) {
		output.err(`threadline: ${source} does not verify: ${report.firstFailure ?? 'broken'}`);
		return 1;
	}
	const otlp = ledgerToOtlp(events, {
		serviceVersion: packageVersion(),
		exportName: basename(source)
	});
	const text = JSON.stringify(otlp);
	const out = values.get('out');
	if (out) await writeFile(out, text + '\n');
	else output.out(text);
	return 0;
}
