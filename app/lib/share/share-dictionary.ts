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
	'AST_REFACTOR INTENT_EVOLUTION select_active_intent write_to_file apply_diff execute_command '
].join('');

export const shareDictionary: Uint8Array = strToU8(vocabulary);
