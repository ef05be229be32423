import { strToU8 } from 'fflate';

/**
 * A preset deflate dictionary of what every Threadline scenario is made of: TypeScript and
 * Node idioms, test code, the intents and manifest YAML keys, markdown of briefs. Deflate can
 * then point back into it from the first byte, which is what keeps a whole small workspace
 * inside a link. Part of the link format: changing it needs a new version prefix (v2).
 */
const vocabulary = [
	'{"manifest":{"id":"","title":"","summary":"","brief":"# ',
	'","suggested_prompts":["',
	'"],"approval_policy":"destructive","sandbox":{"needs":"any","note":"',
	'"}},"files":{".orchestration/active_intents.yaml":{"encoding":"utf8","content":"',
	'active_intents:\\n  - id: INT-001\\n    name: \\n    status: IN_PROGRESS\\n    owned_scope: [\\"src/**\\"]\\n    constraints:\\n      - \\"Must not \\"\\n    acceptance_criteria:\\n      - description: \\"\\"\\n        run: \\"npm test\\"\\n',
	'  - id: INT-002\\n    name: \\n    status: DRAFT\\n    owned_scope: [\\"docs/**\\", \\"tests/**\\"]\\n',
	'rules:\\n  - match: { tools: [write_to_file, apply_diff], paths: [\\"src/**/*.ts\\"], intents: [INT-001] }\\n    action: run\\n    run: \\"npm test\\"\\n    action: deny\\n    message: \\"\\"\\n  - match: { tools: [execute_command], commands: [\\"npm publish*\\", \\"git push*\\"] }\\n    action: ask\\n',
	'"},".intentignore":{"encoding":"utf8","content":"# Intents listed here are protected: every destructive action asks first.\\n',
	'"},"README.md":{"encoding":"utf8","content":"# ',
	'"},"package.json":{"encoding":"utf8","content":"{\\n  \\"name\\": \\"\\",\\n  \\"version\\": \\"1.0.0\\",\\n  \\"private\\": true,\\n  \\"type\\": \\"module\\",\\n  \\"scripts\\": {\\n    \\"test\\": \\"node --test\\"\\n  }\\n}\\n',
	'"},"tsconfig.json":{"encoding":"utf8","content":"{\\n  \\"compilerOptions\\": {\\n    \\"target\\": \\"ES2022\\",\\n    \\"module\\": \\"NodeNext\\",\\n    \\"strict\\": true\\n  }\\n}\\n',
	'"},"src/index.ts":{"encoding":"utf8","content":"',
	'"},"tests/index.test.ts":{"encoding":"utf8","content":"',
	"import { describe, it } from 'node:test';\\nimport assert from 'node:assert/strict';\\nimport { readFileSync } from 'node:fs';\\n",
	"import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';\\n",
	"describe('', () => {\\n\\tit('', async () => {\\n\\t\\tassert.equal(await , );\\n\\t\\tassert.deepEqual(, );\\n\\t\\tassert.ok();\\n\\t});\\n});\\n",
	'export async function (: string): Promise<string | null> {\\n\\tconst  = await ;\\n\\tif (!) return null;\\n\\treturn ;\\n}\\n',
	'export function (: string, : number): boolean {\\n\\treturn  === undefined;\\n}\\n',
	'export interface  {\\n\\tid: string;\\n\\tname: string;\\n\\temail: string;\\n\\tcreatedAt: number;\\n\\texpiresAt: number;\\n}\\n',
	'export const  = new Map<string, >();\\nexport type  = ;\\nexport default ;\\n',
	'const  = ;\\nlet  = ;\\nfor (const  of ) {\\n\\t\\n}\\nthrow new Error(`${}`);\\nconsole.log(`${}`);\\nprocess.exit(1);\\n',
	'import type { Request, Response, NextFunction } from ',
	'// TODO: \\n/** */\\n',
	'## What to try\\n\\n1. Ask the agent to \\n2. \\n3. \\n\\n## What the hooks should block or ask\\n\\n| you try | what happens |\\n| --- | --- |\\n| a write before `select_active_intent` | `intent_required` |\\n| writing outside the owned scope | `scope_violation` |\\n| writing under `.orchestration/` | `protected_path` |\\n| a change you reject | `user_rejected` |\\n\\n## Export and verify\\n\\n```sh\\nnpx threadline verify -workspace.zip\\nnpx threadline report -workspace.zip --format md\\n```\\n',
	' the agent the session the intent the tests the file the user the token the password the database ',
	// The built-in scenarios' shared test runner (tests/run-all.ts) and their brief's export section.
	'"},"tests/run-all.ts":{"encoding":"utf8","content":"',
	"// Runs every *.test.ts under tests/ (plain TypeScript that throws on failure): `npm test`.\\n// `npm test -- tests/auth` (or a file) runs only the tests under the paths given.\\nimport { readdir } from 'node:fs/promises';\\nimport { join, relative, resolve } from 'node:path';\\nimport { fileURLToPath, pathToFileURL } from 'node:url';\\n\\nconst root = fileURLToPath(new URL('.', import.meta.url));\\nconst only = process.argv.slice(2).map((path) => resolve(path));\\n\\nasync function findTests(folder: string): Promise<string[]> {\\n\\tconst found: string[] = [];\\n\\tfor (const entry of await readdir(folder, { withFileTypes: true })) {\\n\\t\\tconst path = join(folder, entry.name);\\n\\t\\tif (entry.isDirectory()) found.push(...(await findTests(path)));\\n\\t\\telse if (entry.name.endsWith('.test.ts')) found.push(path);\\n\\t}\\n\\treturn found.sort();\\n}\\n\\nfunction selected(file: string): boolean {\\n\\treturn only.length === 0 || only.some((path) => file === path || file.startsWith(`${path}/`));\\n}\\n\\nconst failures: string[] = [];\\nconst files = (await findTests(root)).filter(selected);\\nif (files.length === 0) throw new Error(`no tests under ${process.argv.slice(2).join(', ')}`);\\nfor (const file of files) {\\n\\tconst name = relative(root, file);\\n\\ttry {\\n\\t\\tawait import(pathToFileURL(file).href);\\n\\t\\tconsole.log(`ok    ${name}`);\\n\\t} catch (error) {\\n\\t\\tfailures.push(name);\\n\\t\\tconsole.log(`FAIL  ${name}: ${error instanceof Error ? error.message : String(error)}`);\\n\\t}\\n}\\nif (failures.length > 0) {\\n\\tconsole.log(`${failures.length} of ${files.length} test file(s) failed`);\\n\\tprocess.exit(1);\\n}\\nconsole.log(`all ${files.length} test file(s) passed`);\\n",
	'## Export and verify\\n\\nIn the **Trace** tab, **Export .orchestration** downloads `-orchestration.zip`: the\\nworkspace files plus `.orchestration/` (`agent_trace.jsonl`, `audit.jsonl`, the intents). That\\nis the zip that verifies. (**Export zip** in the top bar saves only the files, without the\\nledger: it cannot be verified.) **Verify** in the Trace tab runs the same check in the browser.\\n\\nTo check it with the CLI, use a clone of the Threadline repository (Node 20.19 or later):\\n\\n```sh\\ngit clone <the Threadline repository> threadline && cd threadline && npm ci\\nnode bin/threadline.js verify ~/Downloads/-orchestration.zip\\nnode bin/threadline.js report ~/Downloads/-orchestration.zip --format md\\n```\\n\\n(`npx threadline …` works only inside that clone; `npm exec -- threadline …` there too.)\\n\\n`verify` recomputes both hash chains and every content hash; `report` shows, per intent, the ',
	'AST_REFACTOR INTENT_EVOLUTION select_active_intent write_to_file apply_diff execute_command '
].join('');

export const shareDictionary: Uint8Array = strToU8(vocabulary);
