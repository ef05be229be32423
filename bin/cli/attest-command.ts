import { createHash } from 'node:crypto';
import { signEnvelope } from '../../hooks/formats/dsse.js';
import {
	chainedSubjects,
	inTotoPayloadType,
	ledgerPredicate,
	ledgerStatement,
	statementBytes,
	testResultStatement
} from '../../hooks/formats/in-toto.js';
import { anyCriterionUnmet } from '../../hooks/intents/check-criteria.js';
import { checkExport } from './check-command.js';
import { ed25519Sign, publicKeyId, readSigningKey } from './ed25519-keys.js';
import { packageVersion } from './package-version.js';
import { parseArguments } from './parse-arguments.js';
import { loadExport } from './read-export-source.js';
import { UsageError } from './usage-error.js';

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * `threadline attest <export> --key <Ed25519 PEM> [--check]`: an in-toto Statement v1 about the
 * export (its chained files by SHA-256; the chains' heads and the server's receipts), signed in a
 * DSSE envelope, printed as one JSON line. With `--check`, the criteria are re-run (as `threadline
 * check`) and a second envelope carries the in-toto Test Result: the output is then a bundle of
 * two lines. Exit 0 when signed (and, with --check, every runnable criterion passed), 1 when a
 * criterion did not pass (the attestation is still printed: it says so), 2 on bad input.
 */
export async function attestCommand(
	argv: string[],
	output: { out(text: string): void; err(text: string): void }
): Promise<number> {
	const { positional, values, flags } = parseArguments(argv, { values: ['key'], flags: ['check'] });
	if (positional.length !== 1 || !values.has('key'))
		throw new UsageError(
			'attest takes one export and a key: threadline attest <dir|zip> --key <ed25519.pem> [--check]'
		);
	const key = await readSigningKey(values.get('key') as string);
	const loaded = await loadExport(positional[0] as string);
	const subjects = chainedSubjects(loaded.orchestrationFiles, sha256Hex);
	const signer = {
		keyid: publicKeyId(key),
		sign: (message: Uint8Array) => ed25519Sign(key, message)
	};
	const statements = [
		ledgerStatement(
			subjects,
			ledgerPredicate(loaded.auditJsonl, loaded.traceJsonl, packageVersion())
		)
	];
	let unmet = false;
	if (flags.has('check')) {
		const intents = loaded.orchestrationFiles.get('active_intents.yaml');
		if (!intents)
			throw new UsageError('the export has no .orchestration/active_intents.yaml to check');
		const checks = await checkExport(loaded);
		unmet = anyCriterionUnmet(checks);
		statements.push(
			testResultStatement(subjects, checks, {
				name: '.orchestration/active_intents.yaml',
				digest: { sha256: sha256Hex(intents) }
			})
		);
	}
	for (const statement of statements) {
		const envelope = await signEnvelope(inTotoPayloadType, statementBytes(statement), signer);
		output.out(JSON.stringify(envelope));
	}
	return unmet ? 1 : 0;
}
