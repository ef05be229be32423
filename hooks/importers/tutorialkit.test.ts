import { describe, expect, it } from 'vitest';
import { parseScenarioManifest } from '../scenarios/scenario-schema.js';
import { importLimits } from './imported-scenario.js';
import { importTutorialKit } from './tutorialkit.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function folder(files: Record<string, string | Uint8Array>): Map<string, Uint8Array> {
	return new Map(
		Object.entries(files).map(([path, content]) => [
			path,
			typeof content === 'string' ? encoder.encode(content) : content
		])
	);
}

/** A TutorialKit project as `npm create tutorial` lays it out, with a template that extends another. */
const project = {
	'package.json': '{"name":"tutorial-site"}',
	'src/content/tutorial/meta.md':
		"---\ntype: tutorial\ntitle: Counter Tutorial\ntemplate: vite-app\nmainCommand: ['npm run dev', 'Starting http server']\nprepareCommands:\n  - ['npm install', 'Installing dependencies']\n---\n",
	'src/content/tutorial/1-basics/meta.md': '---\ntype: part\ntitle: Basics\n---\n',
	'src/content/tutorial/1-basics/1-introduction/meta.md':
		'---\ntype: chapter\ntitle: Introduction\nlessons: [2-second, 1-welcome]\n---\n',
	'src/content/tutorial/1-basics/1-introduction/1-welcome/content.md':
		'---\ntype: lesson\ntitle: Welcome\nfocus: /counter.js\npreviews: false\n---\n\n# Welcome\n\nAdd the listener.\n',
	'src/content/tutorial/1-basics/1-introduction/1-welcome/_files/counter.js':
		'export function setupCounter() {}\n',
	'src/content/tutorial/1-basics/1-introduction/1-welcome/_solution/counter.js':
		'export function setupCounter(element) { element.addEventListener("click", () => {}); }\n',
	'src/content/tutorial/1-basics/1-introduction/2-second/content.md':
		'---\ntype: lesson\ntitle: Second\n---\nimport Thing from "./thing.astro";\n\nNow style it.\n',
	'src/content/tutorial/1-basics/1-introduction/2-second/_files/style.css': 'body {}\n',
	'src/content/tutorial/1-basics/1-introduction/2-second/_files/counter.js':
		'export function setupCounter() { /* different */ }\n',
	'src/content/tutorial/1-basics/1-introduction/2-second/_solution/style.css':
		'body { color: red; }\n',
	'src/content/tutorial/1-basics/1-introduction/2-second/_solution/logo.png': new Uint8Array([
		0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe
	]),
	'src/templates/vite-app/.tk-config.json': '{"extends": "../shared"}',
	'src/templates/vite-app/index.html': '<script src="main.js"></script>\n',
	'src/templates/vite-app/counter.js': '// from the template\n',
	'src/templates/shared/index.html': '<p>base</p>\n',
	'src/templates/shared/package.json': '{"name":"app"}\n'
};

function imported(files: Record<string, string | Uint8Array>) {
	const result = importTutorialKit(folder(files));
	if (!result.ok) throw new Error(result.problem);
	const manifest = parseScenarioManifest(decoder.decode(result.entries.get('scenario.yaml')));
	if (!manifest.ok) throw new Error(JSON.stringify(manifest.errors));
	const files_ = new Map(
		[...result.entries]
			.filter(([path]) => path.startsWith('files/'))
			.map(([path, bytes]) => [path.slice(6), decoder.decode(bytes)])
	);
	return { result, manifest: manifest.manifest, files: files_ };
}

describe('importTutorialKit', () => {
	it('lessons become steps in meta.md order: title, brief, starting files (templates resolved, base first), solution', () => {
		const { manifest, files, result } = imported(project);
		expect(manifest.title).toBe('Counter Tutorial');
		expect(manifest.id).toBe('counter-tutorial');
		// The chapter lists 2-second before 1-welcome.
		expect(manifest.steps?.map((step) => step.title)).toEqual(['Second', 'Welcome']);
		expect(manifest.steps?.[1]?.brief).toContain('Add the listener.');
		expect(manifest.steps?.[1]?.solution?.files).toEqual({
			'counter.js':
				'export function setupCounter(element) { element.addEventListener("click", () => {}); }\n'
		});
		// The template extends ../shared: shared's package.json, vite-app's index.html over shared's.
		expect(files.get('index.html')).toBe('<script src="main.js"></script>\n');
		expect(files.get('package.json')).toBe('{"name":"app"}\n');
		expect(files.has('.tk-config.json')).toBe(false);
		// The first step's _files override the template.
		expect(files.get('counter.js')).toBe('export function setupCounter() { /* different */ }\n');
		expect(files.get('style.css')).toBe('body {}\n');
		const listed = result.notCarried.join('\n');
		expect(listed).toContain('mainCommand');
		expect(listed).toContain('prepareCommands');
		expect(listed).toContain('previews false');
		expect(listed).toContain('focus "/counter.js"');
		expect(listed).toContain('MDX imports');
		expect(listed).toContain('_solution/logo.png is not text');
		expect(listed).toMatch(/1-welcome: starts counter\.js differently/);
	});

	it('one lesson folder alone is a one-step scenario; a named template it cannot see is listed', () => {
		const { manifest, result } = imported({
			'content.md': '---\ntype: lesson\ntitle: Only one\ntemplate: react\n---\nBody\n',
			'_files/a.js': 'a\n'
		});
		expect(manifest.steps).toHaveLength(1);
		expect(manifest.title).toBe('Only one');
		expect(result.notCarried.join('\n')).toContain('template "react"');
	});

	it('an extends that leaves the folder or loops is not followed, and says so', () => {
		const { result } = imported({
			...project,
			'src/templates/vite-app/.tk-config.json': '{"extends": "../../../../etc"}'
		});
		expect(result.notCarried.join('\n')).toContain('leaves the given folder; not followed');
		const looped = imported({
			...project,
			'src/templates/shared/.tk-config.json': '{"extends": "../vite-app"}'
		});
		expect(looped.result.notCarried.join('\n')).toContain('extends in a loop');
	});

	it('solutions and files under governance paths are left out and listed', () => {
		const { files, manifest, result } = imported({
			'content.md': '---\ntitle: T\n---\nx\n',
			'_files/.orchestration/active_intents.yaml': 'active_intents: []\n',
			'_files/ok.txt': 'ok\n',
			'_solution/.intentignore': 'INT-001\n',
			'_solution/ok.txt': 'done\n'
		});
		expect(files.get('.orchestration/active_intents.yaml')).not.toBe('active_intents: []\n');
		expect(manifest.steps?.[0]?.solution?.files).toEqual({ 'ok.txt': 'done\n' });
		expect(result.notCarried.join('\n')).toContain('_solution/.intentignore');
	});

	it('refuses hostile entries naming them: traversal, absolute paths, backslashes, huge files, too many', () => {
		const cases: [Record<string, string | Uint8Array>, string][] = [
			[
				{ 'content.md': 'x', '../escape/_files/a.js': 'x' },
				'"../escape/_files/a.js" has a ".." segment'
			],
			[{ 'content.md': 'x', '/etc/passwd': 'x' }, '"/etc/passwd" is an absolute path'],
			[{ 'content.md': 'x', 'a\\..\\b': 'x' }, 'backslash'],
			[
				{ 'content.md': 'x', '_files/big.bin': new Uint8Array(importLimits.maximumFileBytes + 1) },
				'_files/big.bin is'
			],
			[
				Object.fromEntries(
					Array.from({ length: importLimits.maximumFiles + 1 }, (_, index) => [
						`_files/f${index}`,
						'x'
					])
				),
				'at most 2000'
			]
		];
		for (const [files, problem] of cases) {
			const result = importTutorialKit(folder(files));
			expect(result.ok).toBe(false);
			if (!result.ok) expect(result.problem).toContain(problem);
		}
		const empty = importTutorialKit(folder({ 'README.md': 'x' }));
		expect(empty.ok === false && empty.problem).toContain('no TutorialKit lesson found');
		const badFrontMatter = importTutorialKit(folder({ 'content.md': '---\n: [\n---\n' }));
		expect(badFrontMatter.ok === false && badFrontMatter.problem).toContain(
			'content.md: the front matter is not YAML'
		);
		const tooMany = importTutorialKit(
			folder(
				Object.fromEntries(Array.from({ length: 51 }, (_, index) => [`${index}-l/content.md`, 'x']))
			)
		);
		expect(tooMany.ok === false && tooMany.problem).toContain('at most 50 steps');
	});
});
