import { lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkExportCriteria } from '../../hooks/intents/check-export-criteria.js';
import { createLocalSandbox } from '../../sandbox/local/local-sandbox.js';
import { MemoryWorkspaceFiles } from '../../sandbox/local/memory-workspace-files.js';
import { captureOutput } from './capture-output.js';
import { main } from './main.js';
import { readImportFolder } from './read-import-folder.js';

let work: string;

async function cli(...argv: string[]) {
	const streams = captureOutput();
	const code = await main(argv, streams.output);
	return { code, out: streams.out.join('\n'), err: streams.err.join('\n') };
}

async function write(files: Record<string, string>, root = work): Promise<void> {
	for (const [path, content] of Object.entries(files)) {
		await mkdir(dirname(join(root, path)), { recursive: true });
		await writeFile(join(root, path), content);
	}
}

beforeEach(async () => {
	work = await mkdtemp(join(tmpdir(), 'threadline-import-'));
});

afterEach(async () => {
	await rm(work, { recursive: true, force: true });
});

describe('threadline import classroom', () => {
	it('writes a scenario threadline validate accepts, whose criteria pass and fail in the offline sandbox as the tests would', async () => {
		const tests = {
			tests: [
				{
					name: 'greets exactly',
					run: 'bash greet.sh',
					input: 'Ada\n',
					output: 'Hello, Ada!\n',
					comparison: 'exact',
					points: 4
				},
				{
					name: 'greets loudly',
					run: 'bash greet.sh',
					input: 'Ada',
					output: 'HELLO',
					comparison: 'included',
					points: 1
				},
				{
					name: 'greeting shape',
					run: 'bash greet.sh',
					input: 'Bob',
					output: '^Hello, [A-Z][a-z]+!$',
					comparison: 'regex',
					points: 2
				},
				{ name: 'exit code only', run: 'test -f greet.sh', points: 1 }
			]
		};
		await write({ 'autograding.json': JSON.stringify(tests) });
		const out = join(work, 'scenario');
		const imported = await cli(
			'import',
			'classroom',
			join(work, 'autograding.json'),
			'--out',
			out,
			'--title',
			'Greeter'
		);
		expect(imported.err).toBe('');
		expect(imported.code).toBe(0);
		expect(imported.out).toContain('not carried');
		const validated = await cli('validate', out);
		expect(validated.err).toBe('');
		expect(validated.code).toBe(0);

		// The student's program, beside the imported intents, run as threadline check runs criteria.
		const scenarioFiles = await readImportFolder(join(out, 'files'));
		const files = new Map(
			[...scenarioFiles].filter(([path]) => !path.startsWith('.orchestration/'))
		);
		files.set('greet.sh', new TextEncoder().encode('read -r name\necho "Hello, $name!"\n'));
		const orchestration = new Map(
			[...scenarioFiles]
				.filter(([path]) => path.startsWith('.orchestration/'))
				.map(([path, bytes]) => [path.slice('.orchestration/'.length), bytes])
		);
		const checks = await checkExportCriteria({
			files,
			orchestration,
			nowMs: () => performance.now(),
			startSandbox: (start) => createLocalSandbox({ files: new MemoryWorkspaceFiles(start) })
		});
		expect(checks.map((check) => [check.name, check.criteria[0]?.outcome])).toEqual([
			['greets exactly', 'passed'],
			['greets loudly', 'failed'],
			['greeting shape', 'passed'],
			['exit code only', 'passed']
		]);
		expect(checks[1]?.criteria[0]?.output).toContain(
			'expected output to include:\nHELLO\ngot:\nHello, Ada!'
		);
	}, 120_000);
});

describe('threadline import tutorialkit', () => {
	const lesson = {
		'src/content/tutorial/meta.md': '---\ntype: tutorial\ntitle: Tiny\n---\n',
		'src/content/tutorial/1-part/1-chapter/1-lesson/content.md':
			'---\ntype: lesson\ntitle: One\n---\nDo it.\n',
		'src/content/tutorial/1-part/1-chapter/1-lesson/_files/a.js': 'a\n',
		'src/content/tutorial/1-part/1-chapter/1-lesson/_solution/a.js': 'b\n',
		'src/templates/default/index.html': '<p></p>\n'
	};

	it('imports a project folder to a valid scenario and lists what it could not carry', async () => {
		await write(lesson, join(work, 'tutorial'));
		const out = join(work, 'scenario');
		const imported = await cli('import', 'tutorialkit', join(work, 'tutorial'), '--out', out);
		expect(imported.err).toBe('');
		expect(imported.code).toBe(0);
		expect(await readFile(join(out, 'files/index.html'), 'utf8')).toBe('<p></p>\n');
		expect((await cli('validate', out)).code).toBe(0);
	});

	it('refuses a symbolic link (naming it), a non-empty --out, and a missing folder; writes nothing', async () => {
		await write(lesson, join(work, 'tutorial'));
		await symlink(
			'/etc/passwd',
			join(work, 'tutorial/src/content/tutorial/1-part/1-chapter/1-lesson/_files/passwd')
		);
		const out = join(work, 'scenario');
		const linked = await cli('import', 'tutorialkit', join(work, 'tutorial'), '--out', out);
		expect(linked.code).toBe(2);
		expect(linked.err).toContain(
			'src/content/tutorial/1-part/1-chapter/1-lesson/_files/passwd is a symbolic link'
		);
		expect(await lstat(out).catch(() => null)).toBeNull();

		await write({ 'keep.txt': 'mine' }, out);
		const occupied = await cli('import', 'tutorialkit', join(work, 'tutorial'), '--out', out);
		expect(occupied.code).toBe(2);
		expect(occupied.err).toContain('exists and is not an empty folder');
		expect(await readFile(join(out, 'keep.txt'), 'utf8')).toBe('mine');

		const missing = await cli(
			'import',
			'tutorialkit',
			join(work, 'nope'),
			'--out',
			join(work, 'other')
		);
		expect(missing.code).toBe(2);
		expect(missing.err).toContain('does not exist');
	});

	it('refuses a tree of too many folders (even empty ones), naming where it stopped', async () => {
		await write(lesson, join(work, 'tutorial'));
		for (let index = 0; index < 5_001; index++)
			await mkdir(join(work, 'tutorial/empty', String(index)), { recursive: true });
		const refused = await cli(
			'import',
			'tutorialkit',
			join(work, 'tutorial'),
			'--out',
			join(work, 'scenario')
		);
		expect(refused.code).toBe(2);
		expect(refused.err).toMatch(/holds more than 5000 folders; refusing at empty\/\d+/);
	}, 60_000);

	it('refuses a file over the size limit by name, before reading it', async () => {
		await write(lesson, join(work, 'tutorial'));
		const big = join(
			work,
			'tutorial/src/content/tutorial/1-part/1-chapter/1-lesson/_files/big.bin'
		);
		await writeFile(big, '');
		const { truncate } = await import('node:fs/promises');
		await truncate(big, 6 * 1024 * 1024);
		const refused = await cli(
			'import',
			'tutorialkit',
			join(work, 'tutorial'),
			'--out',
			join(work, 'scenario')
		);
		expect(refused.code).toBe(2);
		expect(refused.err).toContain('_files/big.bin is 6291456 bytes');
	});
});

describe('a real TutorialKit tutorial (the one `npm create tutorial` starts from)', () => {
	it('imports @tutorialkit/cli’s own template project as TutorialKit lays it out', async () => {
		// The package exports no subpaths: find it from its main entry (dist/…).
		const main = createRequire(import.meta.url).resolve('@tutorialkit/cli');
		const template = join(
			main.slice(0, main.lastIndexOf('/@tutorialkit/cli/') + '/@tutorialkit/cli/'.length),
			'template'
		);
		const out = join(work, 'welcome-to-tutorialkit');
		const imported = await cli('import', 'tutorialkit', template, '--out', out);
		expect(imported.err).toBe('');
		expect(imported.code).toBe(0);
		expect((await cli('validate', out)).code).toBe(0);
		const lesson = join(template, 'src/content/tutorial/1-basics/1-introduction/1-welcome');
		const manifest = await readFile(join(out, 'scenario.yaml'), 'utf8');
		expect(manifest).toContain('title: Welcome to TutorialKit');
		// The lesson's _files over the default template; the solution as the step's solution.
		expect(await readFile(join(out, 'files/counter.js'), 'utf8')).toBe(
			await readFile(join(lesson, '_files/counter.js'), 'utf8')
		);
		for (const name of ['index.html', 'main.js', 'package.json'])
			expect(await readFile(join(out, 'files', name), 'utf8')).toBe(
				await readFile(join(template, 'src/templates/default', name), 'utf8')
			);
		const solution = await readFile(join(lesson, '_solution/counter.js'), 'utf8');
		expect(manifest).toContain(
			solution.split('\n').find((line) => line.includes('addEventListener'))
		);
		// The tutorial's meta.md sets mainCommand and prepareCommands for every lesson.
		expect(imported.out).toMatch(/not carried[\s\S]*mainCommand[\s\S]*prepareCommands[\s\S]*focus/);
		// Its code sample has `export function …` inside a fence: that is not MDX.
		expect(imported.out).not.toContain('MDX');
	});
});

describe('threadline policy import/export claude', () => {
	it('prints hooks.yaml and settings JSON; what is not carried goes to stderr', async () => {
		await write({
			'settings.json': JSON.stringify({
				permissions: { deny: ['Bash(curl:*)', 'WebFetch'], allow: ['Read'] }
			})
		});
		const imported = await cli('policy', 'import', 'claude', join(work, 'settings.json'));
		expect(imported.code).toBe(0);
		expect(imported.out).toContain('commands:');
		expect(imported.err).toContain('not carried: permissions.deny[1] "WebFetch"');
		await write({ 'hooks.yaml': imported.out });
		const exported = await cli('policy', 'export', 'claude', join(work, 'hooks.yaml'));
		expect(exported.code).toBe(0);
		expect(JSON.parse(exported.out)).toEqual({
			permissions: { deny: ['Bash(curl)', 'Bash(curl:*)'], ask: [], allow: ['Read'] }
		});
		const bad = await cli('policy', 'import', 'claude', join(work, 'hooks.yaml'));
		expect(bad.code).toBe(2);
		expect(bad.err).toContain('not JSON');
	});
});
