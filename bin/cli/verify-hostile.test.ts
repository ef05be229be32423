import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { zipEntries } from '../../hooks/ledger/read-export.js';
import { captureOutput } from './capture-output.js';
import { main } from './main.js';
import { readFolderExport } from './read-export-source.js';

/**
 * `threadline verify` on the TRP1 export after tampering (issue 7, cause 9): every file of
 * `.orchestration/` is checked, `.git/` and links against the starting snapshot, and an export
 * with aliased or duplicate entries is refused naming the entry. Exit codes: 0 ok, 1 failed,
 * 2 unreadable; never a stack trace.
 */
const fixtures = join(import.meta.dirname, '..', 'fixtures');
let replayed: string;
let workspace: string;

async function cli(...argv: string[]) {
	const streams = captureOutput();
	const code = await main(argv, streams.output);
	return { code, out: streams.out.join('\n'), err: streams.err.join('\n') };
}

beforeAll(async () => {
	// One replay of the demo (with a .git/ folder and a link), copied for each test.
	replayed = await mkdtemp(join(tmpdir(), 'threadline-verify-base-'));
	await cp(join(fixtures, 'trp1-workspace'), replayed, { recursive: true });
	await mkdir(join(replayed, '.git'), { recursive: true });
	await writeFile(join(replayed, '.git/config'), '[core]\n\tbare = false\n');
	await symlink('../README.md', join(replayed, 'src/readme-link'));
	await writeFile(join(replayed, 'README.md'), '# Readme\n');
	// A name in NFD, as macOS (or a shell) writes it; the ledger records it composed.
	await mkdir(join(replayed, 'docs'));
	await writeFile(join(replayed, 'docs', 'cafe\u0301.md'), 'caf\u00e9\n');
	const streams = captureOutput();
	const code = await main(
		['replay', join(fixtures, 'trp1-demo.yaml'), '--workspace', replayed],
		streams.output
	);
	if (code !== 0) throw new Error(`the demo did not replay: ${streams.err.join('\n')}`);
}, 60_000);

beforeEach(async () => {
	workspace = await mkdtemp(join(tmpdir(), 'threadline-verify-'));
	await cp(replayed, workspace, { recursive: true, verbatimSymlinks: true });
});

afterEach(async () => {
	await rm(workspace, { recursive: true, force: true });
});

describe('threadline verify checks everything it exports', () => {
	it('passes the untouched export, as a folder and as a zip (links kept as links)', async () => {
		const folder = await cli('verify', workspace);
		expect(folder.err).toBe('');
		expect(folder.code).toBe(0);
		// audit, trace, conversation, intent map, AGENT.md and the intents file.
		expect(folder.out).toContain('.orchestration: 6 file(s) checked; all as the ledger says');
		const { files, links } = await readFolderExport(workspace);
		expect(links.get('src/readme-link')).toBe('../README.md');
		const zipPath = join(workspace, '..', `${workspace.split('/').pop()}.zip`);
		await writeFile(zipPath, zipEntries(files, links));
		const zipped = await cli('verify', zipPath);
		await rm(zipPath);
		expect(zipped.code).toBe(0);
	});

	it.each([
		['intent_map.md', (text: string) => text.replace('src/auth/jwt.ts', 'src/auth/jwt2.ts')],
		['AGENT.md', (text: string) => `${text}- (INT-001, forged): a fake lesson\n`],
		[
			'active_intents.yaml',
			(text: string) => text.replace('owned_scope: [', 'owned_scope: ["**", ')
		],
		['audit.jsonl', (text: string) => `${text}\n`]
	])('fails when .orchestration/%s is changed, naming it', async (name, change) => {
		const path = join(workspace, '.orchestration', name);
		const before = await readFile(path, 'utf8');
		const after = change(before);
		expect(after).not.toBe(before);
		await writeFile(path, after);
		const result = await cli('verify', workspace);
		expect(result.code).toBe(1);
		expect(result.err).toContain(`FAILED: .orchestration/${name}`);
	});

	it('reports an unknown file in .orchestration/', async () => {
		await writeFile(join(workspace, '.orchestration/extra.md'), 'hello\n');
		const result = await cli('verify', workspace);
		expect(result.code).toBe(1);
		expect(result.err).toContain('.orchestration/extra.md: not recorded in the ledger');
	});

	it('fails when .git/ changed, or gained a file, since the starting snapshot', async () => {
		await writeFile(join(workspace, '.git/config'), '[core]\n\tbare = true\n');
		const changed = await cli('verify', workspace);
		expect(changed.code).toBe(1);
		expect(changed.err).toContain('.git/config: content differs from the workspace snapshot');
		await writeFile(join(workspace, '.git/config'), '[core]\n\tbare = false\n');
		await mkdir(join(workspace, '.git/hooks'));
		await writeFile(join(workspace, '.git/hooks/pre-commit'), 'evil\n');
		const added = await cli('verify', workspace);
		expect(added.code).toBe(1);
		expect(added.err).toContain('.git/hooks/pre-commit: not in the starting snapshot');
	});

	it('fails when a link is retargeted or added, never following it', async () => {
		await rm(join(workspace, 'src/readme-link'));
		await symlink('../.git', join(workspace, 'src/readme-link'));
		const result = await cli('verify', workspace);
		expect(result.code).toBe(1);
		expect(result.err).toContain('src/readme-link: a symbolic link to "../.git"');
	});

	it('refuses a decoy named with backslashes next to a tampered file, naming the entry', async () => {
		const { files, links } = await readFolderExport(workspace);
		const original = files.get('src/auth/jwt.ts') as Uint8Array;
		files.set('src\\auth\\jwt.ts', original);
		files.set('src/auth/jwt.ts', new TextEncoder().encode('// tampered\n'));
		const zipPath = `${workspace}.zip`;
		// zipEntries refuses to write such a name, so write the zip by hand with fflate.
		const { zipSync } = await import('fflate');
		const zippable: Record<string, Uint8Array> = {};
		for (const [path, content] of files) zippable[path] = content;
		await writeFile(zipPath, zipSync(zippable));
		const result = await cli('verify', zipPath);
		await rm(zipPath);
		expect(result.code).toBe(2);
		expect(result.err).toContain('entry "src\\\\auth\\\\jwt.ts" contains a backslash');
		expect(links.size).toBe(1);
	});

	it('passes a workspace with an NFD name, and refuses one holding both spellings', async () => {
		expect((await cli('verify', workspace)).code).toBe(0);
		await writeFile(join(workspace, 'docs', 'caf\u00e9.md'), 'decoy\n');
		const both = await cli('verify', workspace);
		expect(both.code).toBe(2);
		expect(both.err).toContain('name the same file');
	});
});

describe('verify, report and validate on hostile input: plain messages, no stack traces', () => {
	it.each([
		[
			'a folder where audit.jsonl goes',
			async () => {
				await rm(join(workspace, '.orchestration/audit.jsonl'));
				await mkdir(join(workspace, '.orchestration/audit.jsonl'));
				return workspace;
			}
		],
		[
			'a binary file for a zip',
			async () => {
				const path = join(workspace, 'binary.zip');
				await writeFile(path, new Uint8Array([0x50, 0x4b, 0x05, 0x06, 0xff, 0xfe, 0, 1, 2]));
				return path;
			}
		],
		['a missing path', async () => join(workspace, 'nothing-here')]
	])('verify and report on %s exit 2', async (_label, prepare) => {
		const source = await prepare();
		for (const command of ['verify', 'report']) {
			const result = await cli(command, source);
			expect(result.code).toBe(2);
			expect(result.err).toMatch(/^threadline: /);
			expect(result.err).not.toMatch(/\n\s+at /);
		}
	});

	it('verify fails (exit 1) on a huge audit line without crashing', async () => {
		const path = join(workspace, '.orchestration/audit.jsonl');
		await writeFile(
			path,
			`${await readFile(path, 'utf8')}{"x":"${'a'.repeat(8 * 1024 * 1024)}"}\n`
		);
		const result = await cli('verify', workspace);
		expect(result.code).toBe(1);
		expect(result.err).not.toMatch(/\n\s+at /);
	});

	it('validate on a folder named like a file and on a binary file gives a plain message', async () => {
		await mkdir(join(workspace, 'intents.yaml'));
		const folder = await cli('validate', join(workspace, 'intents.yaml'));
		expect(folder.code).not.toBe(0);
		expect(folder.err).not.toMatch(/\n\s+at /);
		await writeFile(join(workspace, 'binary.yaml'), new Uint8Array([0, 1, 2, 255, 254, 10]));
		const binary = await cli('validate', join(workspace, 'binary.yaml'));
		expect(binary.code).toBe(1);
		expect(binary.err).not.toMatch(/\n\s+at /);
	});
});
