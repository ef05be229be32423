import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readExportFiles, unzipEntries, zipEntries } from './read-export.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function entries(files: Record<string, string>): Map<string, Uint8Array> {
	return new Map(Object.entries(files).map(([path, text]) => [path, encoder.encode(text)]));
}

const exportFiles = {
	'.orchestration/audit.jsonl': '{"a":1}\n',
	'.orchestration/agent_trace.jsonl': '{"t":1}\n',
	'.orchestration/intent_map.md': '# Intent map\n',
	'.orchestration/active_intents.yaml': 'active_intents: []\n',
	'src/index.ts': 'export {};\n',
	'README.md': '# Readme\n'
};

describe('readExportFiles', () => {
	it('splits an export into the two ledgers, the workspace and .orchestration/', () => {
		const result = readExportFiles(entries(exportFiles));
		if ('error' in result) throw new Error(result.error);
		expect(result.auditJsonl).toBe('{"a":1}\n');
		expect(result.traceJsonl).toBe('{"t":1}\n');
		expect([...result.files.keys()].sort()).toEqual(['README.md', 'src/index.ts']);
		expect(decoder.decode(result.files.get('src/index.ts'))).toBe('export {};\n');
		// The chained files are text in auditJsonl/traceJsonl only (decoded when read).
		expect([...result.orchestration.keys()].sort()).toEqual([
			'active_intents.yaml',
			'intent_map.md'
		]);
		expect([...result.orchestrationFiles.keys()].sort()).toEqual([
			'active_intents.yaml',
			'agent_trace.jsonl',
			'audit.jsonl',
			'intent_map.md'
		]);
		expect(result.orchestration.get('active_intents.yaml')).toBe('active_intents: []\n');
	});

	it('accepts one top folder, as a zipped folder carries, and ignores only __MACOSX/', () => {
		const nested = Object.fromEntries(
			Object.entries(exportFiles).map(([path, text]) => [`learner-42/${path}`, text])
		);
		const result = readExportFiles(entries({ ...nested, '__MACOSX/._x': 'junk' }));
		if ('error' in result) throw new Error(result.error);
		expect([...result.files.keys()].sort()).toEqual(['README.md', 'src/index.ts']);
		expect(result.auditJsonl).toBe('{"a":1}\n');
	});

	it('refuses an entry outside the export folder: verify would not look at it', () => {
		const nested = Object.fromEntries(
			Object.entries(exportFiles).map(([path, text]) => [`learner-42/${path}`, text])
		);
		const result = readExportFiles(entries({ ...nested, 'src/db/users.ts': 'tampered' }));
		expect(result).toEqual({
			error:
				'invalid export: entry "src/db/users.ts" lies outside the export\'s folder "learner-42"'
		});
	});

	it.each([
		['src\\db\\users.ts', /backslash/],
		['./src/x.ts', /"\." segment/],
		['src//x.ts', /empty segment/],
		['src/./x.ts', /"\." segment/],
		['src/../x.ts', /"\.\." segment/],
		['../x.ts', /"\.\." segment/],
		['/etc/x', /absolute/],
		['C:\\x', /backslash|absolute/],
		['C:/x', /absolute/],
		['src/a\u0000b.ts', /control character/]
	])('refuses the entry %j, naming it', (name, reason) => {
		const result = readExportFiles(entries({ ...exportFiles, [name]: 'x' }));
		expect(result).toHaveProperty('error');
		const error = (result as { error: string }).error;
		expect(error).toMatch(reason);
		expect(error).toContain(JSON.stringify(name));
	});

	it('refuses two entries that are the same file once composed (NFC and NFD)', () => {
		const result = readExportFiles(
			entries({ ...exportFiles, 'docs/caf\u00e9.md': 'a', 'docs/cafe\u0301.md': 'b' })
		);
		expect(result).toEqual({
			error:
				'invalid export: entries "docs/caf\u00e9.md" and "docs/cafe\u0301.md" name the same file'
		});
	});

	it('composes an NFD name, as macOS writes it, to the NFC name the ledger records', () => {
		const result = readExportFiles(entries({ ...exportFiles, 'docs/cafe\u0301.md': 'b' }));
		if ('error' in result) throw new Error(result.error);
		expect(result.files.has('docs/caf\u00e9.md')).toBe(true);
	});

	it('explains a folder that is not an export', () => {
		expect(readExportFiles(entries({ 'src/index.ts': '' }))).toEqual({
			error:
				'no .orchestration/audit.jsonl found (looked at the top level and one folder down); is this a Threadline export?'
		});
	});

	it('does not look two folders down', () => {
		const result = readExportFiles(
			entries({ 'a/b/.orchestration/audit.jsonl': '', 'a/b/.orchestration/agent_trace.jsonl': '' })
		);
		expect(result).toHaveProperty('error');
	});

	it('explains a missing agent_trace.jsonl', () => {
		expect(readExportFiles(entries({ 'x/.orchestration/audit.jsonl': '' }))).toEqual({
			error:
				'x/.orchestration/audit.jsonl is there but x/.orchestration/agent_trace.jsonl is missing'
		});
	});

	it('refuses to guess between several exported folders', () => {
		const result = readExportFiles(
			entries({
				'a/.orchestration/audit.jsonl': '',
				'a/.orchestration/agent_trace.jsonl': '',
				'b/.orchestration/audit.jsonl': '',
				'b/.orchestration/agent_trace.jsonl': ''
			})
		);
		expect(result).toEqual({
			error: 'several exports found ("a/", "b/"); give one export at a time'
		});
	});
});

describe('zipEntries / unzipEntries', () => {
	it('round-trips files and reads them back as an export', () => {
		const zipped = zipEntries(entries(exportFiles));
		const unzipped = unzipEntries(zipped);
		expect([...unzipped.keys()].sort()).toEqual(Object.keys(exportFiles).sort());
		const result = readExportFiles(unzipped);
		if ('error' in result) throw new Error(result.error);
		expect(decoder.decode(result.files.get('README.md'))).toBe('# Readme\n');
	});

	it('gives the same bytes for the same files in any order', () => {
		const forward = zipEntries(entries(exportFiles));
		const backward = zipEntries(new Map([...entries(exportFiles)].reverse()));
		expect(backward).toEqual(forward);
	});

	it('stores a file that would pack tighter than the strict reader accepts, so the zip reads back', () => {
		const zeros = new Uint8Array(2 << 20);
		const log = new TextEncoder().encode(('x'.repeat(99) + '\n').repeat(20_000));
		const zipped = zipEntries(
			new Map([
				['zeros.bin', zeros],
				['build.log', log]
			])
		);
		const unzipped = unzipEntries(zipped);
		expect(unzipped.get('zeros.bin')).toEqual(zeros);
		expect(unzipped.get('build.log')?.length).toBe(log.length);
		expect(zipped.length).toBeGreaterThan(zeros.length);
	});

	it('leaves folder entries out', () => {
		const zipped = zipSync({ 'folder/': new Uint8Array(0), 'folder/a.txt': strToU8('a') });
		expect([...unzipEntries(zipped).keys()]).toEqual(['folder/a.txt']);
	});

	it.each(['../evil.sh', 'a/../../evil.sh', '/etc/passwd', 'C:/Windows/x', '..\\evil'])(
		'refuses a zip entry with the unsafe path %s',
		(path) => {
			const zipped = zipSync({ [path]: strToU8('x') });
			expect(() => unzipEntries(zipped)).toThrow(/entry ".*" (has|is|contains)/);
		}
	);

	it('refuses to write an unsafe path', () => {
		expect(() => zipEntries(entries({ '../x': '' }))).toThrow(/unsafe path/);
	});

	it('says so when the bytes are not a zip', () => {
		expect(() => unzipEntries(encoder.encode('not a zip at all'))).toThrow(/^not a zip file/);
	});
});
