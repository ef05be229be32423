import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crypto as sigstoreCrypto, dsse } from '@sigstore/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { captureOutput } from './capture-output.js';
import { main } from './main.js';
import { multitoolFindings, sarifSchemaErrors } from './sarif-validator.js';

/**
 * The standard outputs of issue 32 on a real export (the TRP1 demo replayed), each checked by
 * something nobody here wrote: JUnit XML against the Jenkins xUnit plugin's JUnit XSD (libxml2's
 * validator, compiled to WebAssembly), SARIF against the official schema and by Microsoft's SARIF
 * Multitool, the DSSE envelopes by sigstore-js's PAE and signature check.
 */
const fixtures = join(import.meta.dirname, '..', 'fixtures');
let base: string;
const folders: string[] = [];
const logs: unknown[] = [];
const keys = generateKeyPairSync('ed25519');
let keyFile: string;
let publicKeyFile: string;

async function cli(...argv: string[]) {
	const streams = captureOutput();
	const code = await main(argv, streams.output);
	return { code, out: streams.out.join('\n'), err: streams.err.join('\n') };
}

async function copyOfExport(): Promise<string> {
	const folder = await mkdtemp(join(tmpdir(), 'threadline-interop-'));
	folders.push(folder);
	await cp(base, folder, { recursive: true });
	return folder;
}

beforeAll(async () => {
	base = await mkdtemp(join(tmpdir(), 'threadline-interop-base-'));
	folders.push(base);
	await cp(join(fixtures, 'trp1-workspace'), base, { recursive: true });
	const replayed = await cli('replay', join(fixtures, 'trp1-demo.yaml'), '--workspace', base);
	if (replayed.code !== 0) throw new Error(replayed.err);
	keyFile = join(base, '..', `${Date.now()}-key.pem`);
	publicKeyFile = `${keyFile}.pub`;
	await writeFile(keyFile, keys.privateKey.export({ format: 'pem', type: 'pkcs8' }));
	await writeFile(publicKeyFile, keys.publicKey.export({ format: 'pem', type: 'spki' }));
}, 120_000);

afterAll(async () => {
	for (const folder of folders) await rm(folder, { recursive: true, force: true });
	await rm(keyFile, { force: true });
	await rm(publicKeyFile, { force: true });
});

describe('threadline check --format junit', () => {
	it('is valid JUnit (XSD) with a passing, a failing, a manual criterion; exit 1', async () => {
		const folder = await copyOfExport();
		const intentsPath = join(folder, '.orchestration/active_intents.yaml');
		const intents = await readFile(intentsPath, 'utf8');
		await writeFile(
			intentsPath,
			intents.replace(
				'acceptance_criteria:',
				'acceptance_criteria:\n      - description: "fails <on purpose> & loudly"\n        run: "echo \'</failure>\' ; printf \'\\\\001\\\\033[31m\'; exit 3"\n'
			)
		);
		const result = await cli('check', folder, '--format', 'junit');
		expect(result.code).toBe(1);
		const junitSchema = await readFile(
			join(import.meta.dirname, '../../hooks/formats/schemas/junit-10.xsd'),
			'utf8'
		);
		const validation = await validateXML({
			xml: [{ fileName: 'check.xml', contents: result.out }],
			schema: [{ fileName: 'junit-10.xsd', contents: junitSchema }]
		});
		expect(validation.errors).toEqual([]);
		expect(result.out).toMatch(/<failure type="exit 3"[^>]*>[^<]*&lt;\/failure&gt;/);
		expect(result.out).toContain('<skipped ');
		expect(result.out.match(/<testcase /g)?.length).toBeGreaterThanOrEqual(3);
	}, 120_000);
});

describe('SARIF from verify and report', () => {
	it('verify: no results on the untouched export; a tampered one names its files and lines; schema-valid', async () => {
		const clean = await cli('verify', base, '--format', 'sarif');
		expect(clean.code).toBe(0);
		const cleanLog = JSON.parse(clean.out) as { runs: { results: unknown[] }[] };
		expect(
			cleanLog.runs[0]?.results.filter((result) => (result as { level: string }).level === 'error')
		).toEqual([]);
		expect(sarifSchemaErrors(cleanLog)).toEqual([]);
		logs.push(cleanLog);

		const folder = await copyOfExport();
		await writeFile(join(folder, 'src/auth/jwt.ts'), 'export const forged = true;\n');
		await writeFile(join(folder, 'src/unrecorded.ts'), 'x\n');
		const auditPath = join(folder, '.orchestration/audit.jsonl');
		const audit = (await readFile(auditPath, 'utf8')).split('\n');
		audit[6] = (audit[6] as string).replace('"session_id":"', '"session_id":"x');
		await writeFile(auditPath, audit.join('\n'));
		const tampered = await cli('verify', folder, '--format', 'sarif');
		expect(tampered.code).toBe(1);
		const log = JSON.parse(tampered.out) as {
			runs: {
				results: {
					ruleId: string;
					locations: {
						physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } };
					}[];
				}[];
			}[];
		};
		expect(sarifSchemaErrors(log)).toEqual([]);
		const results = log.runs[0]?.results ?? [];
		const chain = results.find((result) => result.ruleId === 'audit-chain-broken');
		expect(chain?.locations[0]?.physicalLocation).toEqual({
			artifactLocation: { uri: '.orchestration/audit.jsonl', uriBaseId: 'EXPORTROOT' },
			region: { startLine: 7 }
		});
		const paths = results.map(
			(result) => `${result.ruleId} ${result.locations[0]?.physicalLocation.artifactLocation.uri}`
		);
		expect(paths).toContain('file-unattributed src/unrecorded.ts');
		logs.push(log);
	}, 120_000);

	it('report: every blocked call under its ToolError code, at its audit line; schema-valid', async () => {
		const report = await cli('report', base, '--format', 'sarif');
		expect(report.code).toBe(0);
		const log = JSON.parse(report.out) as {
			runs: {
				results: {
					ruleId: string;
					locations: { physicalLocation: { region?: { startLine: number } } }[];
				}[];
			}[];
		};
		expect(sarifSchemaErrors(log)).toEqual([]);
		const results = log.runs[0]?.results ?? [];
		expect(results.some((result) => result.ruleId === 'scope_violation')).toBe(true);
		expect(
			results.every((result) => (result.locations[0]?.physicalLocation.region?.startLine ?? 0) >= 1)
		).toBe(true);
		expect(results.some((result) => result.ruleId === 'intent_required')).toBe(true);
		// The audit line named is the one that recorded the block.
		const audit = (await readFile(join(base, '.orchestration/audit.jsonl'), 'utf8')).split('\n');
		for (const result of results.filter((result) => /^[a-z]+_[a-z_]+$/.test(result.ruleId))) {
			const line = audit[(result.locations[0]?.physicalLocation.region?.startLine ?? 0) - 1] ?? '';
			expect(line).toContain(`"code":"${result.ruleId}"`);
		}
		logs.push(log);
	}, 120_000);

	it('Microsoft’s SARIF Multitool finds no error in any of them (and does find one in a broken log)', () => {
		const broken = JSON.parse(JSON.stringify(logs[0])) as { runs: { results: unknown[] }[] };
		// An artifact URI that is not a URI reference (a space): the Multitool's SARIF1002.
		broken.runs[0]?.results.push({
			ruleId: 'audit-chain-broken',
			message: { text: 'x.' },
			locations: [{ physicalLocation: { artifactLocation: { uri: 'a b' } } }]
		});
		const findings = multitoolFindings([...logs, broken]);
		if (findings === null) return; // No Multitool binary for this platform; the schema checks above still ran.
		expect(findings.slice(0, -1).map((finding) => finding.errors)).toEqual(logs.map(() => []));
		// A file the Multitool cannot read yields nothing at all; its advisory notes (no
		// informationUri, whole-file locations without a region) show it read each of ours.
		for (const finding of findings) expect(finding.warnings.length).toBeGreaterThan(0);
		expect(findings.at(-1)?.errors.length).toBeGreaterThan(0);
	}, 300_000);
});

describe('threadline attest and verify --attestation', () => {
	it('signs an in-toto Statement v1 in DSSE that sigstore verifies; verify --attestation holds, and fails on any change', async () => {
		const attested = await cli('attest', base, '--key', keyFile);
		expect(attested.code).toBe(0);
		const envelope = JSON.parse(attested.out) as {
			payloadType: string;
			payload: string;
			signatures: { keyid: string; sig: string }[];
		};
		expect(envelope.payloadType).toBe('application/vnd.in-toto+json');
		const payload = Buffer.from(envelope.payload, 'base64');
		const pae = dsse.preAuthEncoding(envelope.payloadType, payload);
		expect(
			sigstoreCrypto.verify(
				pae,
				keys.publicKey,
				Buffer.from(envelope.signatures[0]?.sig ?? '', 'base64')
			)
		).toBe(true);
		const statement = JSON.parse(payload.toString('utf8')) as {
			_type: string;
			subject: { name: string; digest: { sha256: string } }[];
		};
		expect(statement._type).toBe('https://in-toto.io/Statement/v1');
		const auditDigest = execFileSync('sha256sum', [join(base, '.orchestration/audit.jsonl')], {
			encoding: 'utf8'
		}).split(' ')[0];
		expect(
			statement.subject.find((subject) => subject.name === '.orchestration/audit.jsonl')?.digest
				.sha256
		).toBe(auditDigest);

		const attestation = join(base, '..', `${Date.now()}-attestation.jsonl`);
		folders.push(attestation);
		await writeFile(attestation, attested.out);
		const good = await cli(
			'verify',
			base,
			'--attestation',
			attestation,
			'--witness-key',
			publicKeyFile
		);
		expect(good.err).toBe('');
		expect(good.code).toBe(0);
		// The key as base64 of its 32 raw bytes, as the class server publishes its own.
		const raw = keys.publicKey
			.export({ format: 'der', type: 'spki' })
			.subarray(12)
			.toString('base64');
		expect(
			(await cli('verify', base, '--attestation', attestation, '--witness-key', raw)).code
		).toBe(0);

		const other = generateKeyPairSync('ed25519');
		const otherKey = `${publicKeyFile}.other`;
		folders.push(otherKey);
		await writeFile(otherKey, other.publicKey.export({ format: 'pem', type: 'spki' }));
		const wrongKey = await cli(
			'verify',
			base,
			'--attestation',
			attestation,
			'--witness-key',
			otherKey
		);
		expect(wrongKey.code).toBe(1);
		expect(wrongKey.err).toContain('FAILED (attestation): no signature in the envelope verifies');

		// The export grew after it was attested: the subjects no longer match.
		const folder = await copyOfExport();
		const auditPath = join(folder, '.orchestration/audit.jsonl');
		const audit = await readFile(auditPath, 'utf8');
		await writeFile(auditPath, audit.replace(/\n$/, '') + '\n\n');
		const changed = await cli(
			'verify',
			folder,
			'--attestation',
			attestation,
			'--witness-key',
			publicKeyFile,
			'--json'
		);
		expect(changed.code).toBe(1);
		expect(changed.out).toContain('the subjects do not match');
	}, 120_000);

	it('--check adds an in-toto Test Result statement (a bundle of two envelopes)', async () => {
		const attested = await cli('attest', base, '--key', keyFile, '--check');
		expect(attested.code).toBe(0);
		const lines = attested.out.split('\n');
		expect(lines).toHaveLength(2);
		const second = JSON.parse(lines[1] as string) as { payload: string };
		const statement = JSON.parse(Buffer.from(second.payload, 'base64').toString('utf8')) as {
			predicateType: string;
			predicate: {
				result: string;
				configuration: { name: string }[];
				passedTests: string[];
				warnedTests: string[];
				failedTests: string[];
			};
		};
		expect(statement.predicateType).toBe('https://in-toto.io/attestation/test-result/v0.1');
		expect(statement.predicate.result).toBe('WARNED');
		expect(statement.predicate.passedTests).toContain(
			'INT-001: The JWT module exports verifyToken'
		);
		expect(statement.predicate.warnedTests).toContain('INT-001: Unit tests in tests/auth/ pass');
		expect(statement.predicate.configuration[0]?.name).toBe('.orchestration/active_intents.yaml');
		const bundle = join(base, '..', `${Date.now()}-bundle.jsonl`);
		folders.push(bundle);
		await writeFile(bundle, attested.out);
		expect(
			(await cli('verify', base, '--attestation', bundle, '--witness-key', keyFile)).code
		).toBe(0);
	}, 120_000);

	it('refuses a key that is not Ed25519 and an attestation that is not one, plainly (exit 2)', async () => {
		const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
		const rsaFile = `${keyFile}.rsa`;
		folders.push(rsaFile);
		await writeFile(rsaFile, rsa.privateKey.export({ format: 'pem', type: 'pkcs8' }));
		const refused = await cli('attest', base, '--key', rsaFile);
		expect(refused.code).toBe(2);
		expect(refused.err).toContain('an Ed25519 key is needed');
		const junk = `${keyFile}.junk`;
		folders.push(junk);
		await writeFile(junk, 'not json\n');
		const notOne = await cli('verify', base, '--attestation', junk, '--witness-key', publicKeyFile);
		expect(notOne.code).toBe(2);
		expect(notOne.err).toContain('attestation line 1 is not JSON');
	}, 60_000);
});
