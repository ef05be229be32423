import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { verifyEnvelope } from '../../hooks/formats/dsse.js';
import {
	chainedSubjects,
	inTotoPayloadType,
	ledgerPredicate,
	ledgerPredicateType,
	readStatement,
	testResultPredicateType
} from '../../hooks/formats/in-toto.js';
import { ed25519Verify, readVerifyingKey } from './ed25519-keys.js';
import { packageVersion } from './package-version.js';
import type { LoadedExport } from './read-export-source.js';
import { UsageError } from './usage-error.js';

/** An attestation bundle is a few envelopes of a few kilobytes (receipts included). */
const maximumAttestationBytes = 16 * 1024 * 1024;
const maximumEnvelopes = 100;

export interface AttestationCheck {
	ok: boolean;
	envelopes: number;
	/** The predicate types of the envelopes that verified. */
	predicateTypes: string[];
	problems: string[];
	lines: string[];
}

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The envelopes of a file: one JSON object, or a bundle (one envelope per line). */
function envelopesOf(text: string): unknown[] {
	try {
		const whole = JSON.parse(text) as unknown;
		return Array.isArray(whole) ? whole : [whole];
	} catch {
		return text
			.split('\n')
			.filter((line) => line.trim() !== '')
			.map((line, index) => {
				try {
					return JSON.parse(line) as unknown;
				} catch {
					throw new UsageError(`attestation line ${index + 1} is not JSON`);
				}
			});
	}
}

/**
 * `threadline verify <export> --attestation <file> --witness-key <key>`: every envelope's DSSE
 * signature with the key, its payload an in-toto Statement v1 whose subjects are exactly the
 * export's chained files with their SHA-256, and for Threadline's ledger predicate, the chains'
 * heads and receipts as the export holds them now. A learner's key proves who signed; the class
 * server's key that the server vouched for this ledger.
 */
export async function checkAttestationFile(
	path: string,
	keyOrPath: string,
	loaded: LoadedExport
): Promise<AttestationCheck> {
	const info = await stat(path).catch(() => null);
	if (!info?.isFile()) throw new UsageError(`${path} is not a file`);
	if (info.size > maximumAttestationBytes)
		throw new UsageError(
			`${path} is larger than ${maximumAttestationBytes / (1024 * 1024)} MB; that is not an attestation`
		);
	const key = await readVerifyingKey(keyOrPath);
	const envelopes = envelopesOf(await readFile(path, 'utf8'));
	if (envelopes.length === 0) throw new UsageError(`${path} holds no envelope`);
	if (envelopes.length > maximumEnvelopes)
		throw new UsageError(`${path} holds more than ${maximumEnvelopes} envelopes`);
	const expected = chainedSubjects(loaded.orchestrationFiles, sha256Hex);
	const expectedText = JSON.stringify(
		expected.map((subject) => [subject.name, subject.digest.sha256]).sort()
	);
	const problems: string[] = [];
	const predicateTypes: string[] = [];
	envelopes.forEach((value, index) => {
		const where = envelopes.length > 1 ? `envelope ${index + 1}: ` : '';
		const checked = verifyEnvelope(value, (message, signature) =>
			ed25519Verify(key, message, signature)
		);
		if (!checked.ok) return problems.push(`${where}${checked.problem}`);
		if (checked.payloadType !== inTotoPayloadType)
			return problems.push(
				`${where}payloadType is ${JSON.stringify(checked.payloadType)}, not ${inTotoPayloadType}`
			);
		const read = readStatement(checked.payload);
		if (!read.ok) return problems.push(`${where}${read.problem}`);
		const statement = read.statement;
		const subjects = JSON.stringify(
			statement.subject.map((subject) => [subject.name, subject.digest.sha256]).sort()
		);
		if (subjects !== expectedText) {
			const mismatched = statement.subject
				.filter(
					(subject) =>
						!expected.some(
							(own) => own.name === subject.name && own.digest.sha256 === subject.digest.sha256
						)
				)
				.map((subject) => subject.name);
			const unattested = expected
				.filter((own) => !statement.subject.some((subject) => subject.name === own.name))
				.map((own) => own.name);
			return problems.push(
				`${where}the subjects do not match the export's chained files${mismatched.length ? ` (different or absent here: ${mismatched.join(', ')})` : ''}${unattested.length ? ` (not attested: ${unattested.join(', ')})` : ''}`
			);
		}
		if (statement.predicateType === ledgerPredicateType) {
			const own = ledgerPredicate(loaded.auditJsonl, loaded.traceJsonl, packageVersion());
			const stated = statement.predicate as Record<string, unknown>;
			for (const part of ['audit', 'trace', 'receipts'] as const) {
				if (JSON.stringify(stated[part]) !== JSON.stringify(own[part]))
					problems.push(`${where}the predicate's ${part} does not match the export's ledger`);
			}
		} else if (statement.predicateType !== testResultPredicateType) {
			return problems.push(
				`${where}unknown predicateType ${JSON.stringify(statement.predicateType)}`
			);
		}
		predicateTypes.push(statement.predicateType);
	});
	const ok = problems.length === 0;
	const lines = [
		`  attestation:   ${ok ? `${envelopes.length} envelope(s) signed by the key, about these exact files (${predicateTypes.join(', ')})` : `${problems.length} problem(s)`}`,
		...problems.map((problem) => `    ${problem}`)
	];
	return { ok, envelopes: envelopes.length, predicateTypes, problems, lines };
}
