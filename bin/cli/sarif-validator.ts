import { spawnSync } from 'node:child_process';
import {
	accessSync,
	chmodSync,
	constants,
	mkdtempSync,
	readFileSync,
	rmSync,
	writeFileSync
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Test helper: SARIF checked by things nobody here wrote. The JSON schema is the one Microsoft's
 * SARIF Multitool ships (`sarif-2.1.0.json`, in the platform package of `@microsoft/sarif-multitool`),
 * applied with ajv; the Multitool itself (`validate`: the schema plus its own SARIF rules) runs
 * when its binary is there (Linux, macOS, Windows packages; npm installs the one for this machine).
 */
const require = createRequire(import.meta.url);

function multitoolFolder(): string | null {
	for (const name of ['linux', 'darwin', 'win32']) {
		try {
			return dirname(require.resolve(`@microsoft/sarif-multitool-${name}/package.json`));
		} catch {
			// Not this platform's package.
		}
	}
	return null;
}

export function sarifSchemaErrors(log: unknown): string[] {
	const folder = multitoolFolder();
	if (!folder) throw new Error('@microsoft/sarif-multitool is not installed (npm ci)');
	const schema = JSON.parse(readFileSync(join(folder, 'sarif-2.1.0.json'), 'utf8')) as object;
	const ajv = new Ajv2020({ strict: false, allErrors: true });
	addFormats.default(ajv);
	const validate = ajv.compile(schema);
	return validate(log)
		? []
		: (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}

/**
 * The Multitool's `validate` over several logs in one run (it takes about 10 s to start): per log,
 * its errors and warnings (rule id and arguments); null when it cannot run here.
 */
export function multitoolFindings(
	logs: readonly unknown[]
): { errors: string[]; warnings: string[] }[] | null {
	const folder = multitoolFolder();
	if (!folder || process.platform !== 'linux') return null;
	const work = mkdtempSync(join(tmpdir(), 'threadline-sarif-'));
	try {
		const inputs = logs.map((log, index) => {
			const input = join(work, `input-${index}.sarif`);
			writeFileSync(input, JSON.stringify(log, null, 2));
			return input;
		});
		const output = join(work, 'validation.sarif');
		const binary = join(folder, 'Sarif.Multitool');
		try {
			accessSync(binary, constants.X_OK);
		} catch {
			// The package's own postinstall is `chmod u+x Sarif.Multitool`; npm 11 does not run
			// install scripts unless approved, so do here what it would have done.
			chmodSync(binary, 0o755);
		}
		const run = spawnSync(
			binary,
			[
				'validate',
				...inputs,
				'--output',
				output,
				'--json-schema',
				join(folder, 'sarif-2.1.0.json')
			],
			{
				encoding: 'utf8',
				timeout: 300_000,
				env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1' }
			}
		);
		if (run.error) throw run.error;
		const validation = JSON.parse(readFileSync(output, 'utf8')) as {
			runs: {
				results?: {
					ruleId: string;
					level?: string;
					message: { text?: string; arguments?: string[] };
					locations?: { physicalLocation?: { artifactLocation?: { uri?: string } } }[];
				}[];
			}[];
		};
		const perLog = logs.map(() => ({ errors: [] as string[], warnings: [] as string[] }));
		for (const result of validation.runs.flatMap((entry) => entry.results ?? [])) {
			const uri = result.locations?.[0]?.physicalLocation?.artifactLocation?.uri ?? '';
			const index = Number(/input-(\d+)\.sarif/.exec(uri)?.[1] ?? 0);
			const target = perLog[index] ?? perLog[0];
			const text = `${result.ruleId}: ${result.message.text ?? result.message.arguments?.join(' | ') ?? ''}`;
			if ((result.level ?? 'warning') === 'error') target?.errors.push(text);
			else target?.warnings.push(text);
		}
		return perLog;
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}
