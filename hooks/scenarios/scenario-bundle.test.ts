import { describe, expect, it } from 'vitest';
import { scenarioLimits, validateScenarioBundle } from './scenario-bundle.js';
import { sampleBundle } from './scenario-test-fixtures.js';

function errorsOf(value: unknown): string[] {
	const result = validateScenarioBundle(value);
	if (result.ok) throw new Error('expected the bundle to be rejected');
	return result.errors;
}

function withFiles(files: Record<string, unknown>): unknown {
	const bundle = sampleBundle();
	return { ...bundle, files: { ...bundle.files, ...files } };
}

const text = (content: string) => ({ encoding: 'utf8', content });

describe('validateScenarioBundle: valid bundles', () => {
	it('accepts a bundle and returns a fresh copy of what it checked', () => {
		const bundle = sampleBundle();
		const result = validateScenarioBundle(JSON.parse(JSON.stringify(bundle)));
		expect(result).toEqual({ ok: true, bundle });
		expect(result.ok && result.bundle).not.toBe(bundle);
	});

	it('fills manifest defaults and drops unknown top-level keys', () => {
		const { manifest, ...rest } = sampleBundle();
		const result = validateScenarioBundle({
			...rest,
			manifest: { id: manifest.id, title: 't', summary: 's', brief: 'b' },
			signature: 'ignored'
		});
		expect(result.ok && result.bundle.manifest.approval_policy).toBe('destructive');
		expect(result.ok && Object.keys(result.bundle)).toEqual(['manifest', 'files', 'demo']);
	});

	it('accepts a bundle without a demo and binary files in base64', () => {
		const result = validateScenarioBundle({
			...(withFiles({
				'assets/logo.png': { encoding: 'base64', content: 'iVBORw0KGgo=' }
			}) as object),
			demo: null
		});
		expect(result.ok).toBe(true);
	});
});

describe('validateScenarioBundle: untrusted paths', () => {
	it.each([
		['/etc/passwd', /absolute path/],
		['../outside.ts', /climbs above the workspace root/],
		['src/../../outside.ts', /climbs above the workspace root/],
		['C:/Windows/x', /absolute path/],
		['./C:/x', /Windows drive/],
		['~/.ssh/config', /home folder/],
		['https://example.com/x', /is a URL/],
		['src/a\u0000.ts', /control character/],
		['src/ /a.ts', /only whitespace/],
		['./src/a.ts', /not written the canonical way; use "src\/a.ts"/],
		['src//a.ts', /not written the canonical way/],
		['src\\a.ts', /not written the canonical way/],
		['src/./a.ts', /not written the canonical way/],
		['.git/hooks/post-checkout', /may not ship a \.git folder/],
		['.G\u0131T/hooks/post-checkout', /may not ship a \.git folder/],
		['\uff0egit/config', /may not ship a \.git folder/],
		[`${'a/'.repeat(600)}x`, /at most 1024 are allowed/]
	])('refuses %j', (path, message) => {
		const errors = errorsOf(withFiles({ [path]: text('x') }));
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatch(/^files: /);
		expect(errors[0]).toMatch(message);
	});

	it('refuses a file that another path needs as a folder', () => {
		expect(errorsOf(withFiles({ src: text('x') }))).toEqual([
			'files/src: is a file, but src/index.ts needs it to be a folder'
		]);
	});

	it('refuses unknown encodings, non-string content and broken base64, naming the file', () => {
		expect(
			errorsOf(
				withFiles({
					'a.txt': { encoding: 'latin1', content: 'x' },
					'b.txt': { encoding: 'utf8', content: 42 },
					'c.bin': { encoding: 'base64', content: 'not base64!' },
					'd.txt': 'just a string'
				})
			)
		).toEqual([
			'files/a.txt: encoding must be utf8 or base64 (got "latin1")',
			'files/b.txt: content must be a string (got number)',
			'files/c.bin: content is not valid base64',
			'files/d.txt: must be { encoding, content } (got string)'
		]);
	});

	it('treats a __proto__ path as an ordinary name, not as the prototype', () => {
		const value = JSON.parse(
			JSON.stringify(withFiles({})).replace(
				'"files":{',
				'"files":{"__proto__":{"encoding":"utf8","content":"x"},'
			)
		);
		const result = validateScenarioBundle(value);
		expect(result.ok && Object.hasOwn(result.bundle.files, '__proto__')).toBe(true);
		expect(result.ok && Object.getPrototypeOf(result.bundle.files)).toBe(Object.prototype);
	});
});

describe('validateScenarioBundle: size limits', () => {
	it('refuses more files than allowed, before looking at any of them', () => {
		const files: Record<string, unknown> = {};
		for (let index = 0; index <= scenarioLimits.maximumFiles; index++)
			files[`f${index}.txt`] = null;
		const result = validateScenarioBundle({ ...sampleBundle(), files });
		expect(result).toEqual({
			ok: false,
			errors: ['files: the scenario has 2001 files; at most 2000 are allowed'],
			tooLarge: true
		});
	});

	it('refuses files that add up to more than 20 MB, counting decoded bytes', () => {
		const big = 'a'.repeat(11 * 1024 * 1024);
		const result = validateScenarioBundle(
			withFiles({ 'one.txt': text(big), 'two.txt': text(big) })
		);
		expect(result).toEqual({
			ok: false,
			errors: ['files: the files add up to 22.0 MB; at most 20.0 MB are allowed'],
			tooLarge: true
		});
		// 12 MB of base64 is 9 MB of bytes: within the limit next to a 10 MB text file.
		const base64 = 'AAAA'.repeat(3 * 1024 * 1024);
		const ten = 'a'.repeat(10 * 1024 * 1024);
		expect(
			validateScenarioBundle(
				withFiles({ 'one.txt': text(ten), 'two.bin': { encoding: 'base64', content: base64 } })
			).ok
		).toBe(true);
	});

	it('refuses an oversized demo script', () => {
		const result = validateScenarioBundle({
			...sampleBundle(),
			demo: `# ${'x'.repeat(1024 * 1024)}`
		});
		expect(!result.ok && result.tooLarge).toBe(true);
	});

	it('lists at most 50 problems', () => {
		const files: Record<string, unknown> = {};
		for (let index = 0; index < 80; index++) files[`/abs/${index}`] = text('x');
		const errors = errorsOf(withFiles(files));
		expect(errors).toHaveLength(51);
		expect(errors.at(-1)).toBe('bundle: … and 30 more problems');
	});
});

describe('validateScenarioBundle: governance files and demo', () => {
	it('requires the intents file', () => {
		const bundle = sampleBundle();
		delete (bundle.files as Record<string, unknown>)['.orchestration/active_intents.yaml'];
		expect(errorsOf(bundle)).toEqual([
			'files: .orchestration/active_intents.yaml is missing: every scenario needs the intents an agent can check out'
		]);
	});

	it('reports invalid intents with line:column inside the intents file', () => {
		const errors = errorsOf(
			withFiles({
				'.orchestration/active_intents.yaml': text(
					'active_intents:\n  - id: INT-9\n    name: x\n    status: DONE\n'
				)
			})
		);
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatch(
			/^files\/\.orchestration\/active_intents\.yaml:4:13 .*DRAFT, IN_PROGRESS, BLOCKED, COMPLETED/
		);
		expect(
			errorsOf(
				withFiles({ '.orchestration/active_intents.yaml': { encoding: 'base64', content: '//4A' } })
			)
		).toEqual(['files/.orchestration/active_intents.yaml: is not a text file']);
	});

	it('reports a .intentignore line naming an intent that does not exist', () => {
		expect(
			errorsOf(withFiles({ '.intentignore': text('# protected\nINT-001\n  INT-00l # typo\n') }))
		).toEqual([
			'files/.intentignore:3:3 lists "INT-00l", which is not an intent in .orchestration/active_intents.yaml (known: INT-001); a misspelled id protects nothing'
		]);
	});

	it('reports a broken hook policy with line:column and accepts a valid one', () => {
		expect(
			errorsOf(
				withFiles({
					'.orchestration/hooks.yaml': text(
						'rules:\n  - match: { tools: [write_to_file] }\n    action: block\n'
					)
				})
			)[0]
		).toMatch(/^files\/\.orchestration\/hooks\.yaml:3:13 rules\[0\]\.action/);
		expect(
			validateScenarioBundle(
				withFiles({
					'.orchestration/hooks.yaml': text(
						'rules:\n  - match: { paths: ["src/**"] }\n    action: run\n    run: "test -f src/a.ts"\n'
					)
				})
			).ok
		).toBe(true);
	});

	it('reports demo problems with line:column in demo.yaml', () => {
		const bundle = sampleBundle();
		expect(errorsOf({ ...bundle, demo: 'steps:\n  - call: [oops\n' })[0]).toMatch(
			/^demo\.yaml:\d+:\d+ /
		);
		expect(errorsOf({ ...bundle, demo: 'steps: []\n' })[0]).toMatch(/^demo\.yaml:1:8 steps: /);
		expect(
			errorsOf({
				...bundle,
				demo: 'steps:\n  - call: write_file\n    input: {}\n    expect: scope_violaton\n'
			})
		).toEqual([
			expect.stringMatching(
				/^demo\.yaml:4:13 expect must be ok or a ToolError code \(.*\), got "scope_violaton"$/
			),
			expect.stringMatching(
				/^demo\.yaml:2:11 unknown tool "write_file"; the tools are select_active_intent, /
			)
		]);
		expect(
			validateScenarioBundle({
				...bundle,
				demo: 'steps:\n  - call: fly\n    input: {}\n    expect: invalid_input\n'
			}).ok
		).toBe(true);
		expect(errorsOf({ ...bundle, demo: 42 })).toEqual([
			"demo.yaml: demo must be the script's YAML text or null (got number)"
		]);
	});

	it('reports manifest problems without positions (JSON has none)', () => {
		const bundle = sampleBundle();
		expect(
			errorsOf({ ...bundle, manifest: { ...bundle.manifest, id: 'Bad Id', title: 3 } })
		).toEqual([
			'scenario.yaml: id must be kebab-case (lowercase letters and digits joined by single hyphens, e.g. jwt-auth), got "Bad Id"',
			'scenario.yaml: title must be text (got 3); put it in quotes, e.g. "3"'
		]);
		expect(errorsOf({ files: bundle.files, demo: null })).toEqual([
			'scenario.yaml: the bundle has no manifest'
		]);
	});

	it('refuses values that are not bundles at all', () => {
		for (const value of [null, 'text', [1, 2], 42]) {
			expect(errorsOf(value)[0]).toMatch(/^bundle: a scenario bundle is a JSON object/);
		}
		expect(errorsOf({ ...sampleBundle(), files: [] })).toEqual([
			'files: files must map workspace paths to { encoding, content } (got a list)'
		]);
	});
});
