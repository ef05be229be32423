import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryLedger } from '../../hooks/ledger/memory-ledger.js';
import { isGovernancePath } from '../../hooks/paths/protected-paths.js';
import { createToolPipeline } from '../../hooks/pipeline/create-tool-pipeline.js';
import { GovernanceState } from '../../hooks/pipeline/governance-state.js';
import {
	fixedClock,
	intentsFixture,
	sequentialIds
} from '../../hooks/pipeline/pipeline-test-kit.js';
import type { SandboxFileSystem } from '../../hooks/tools/sandbox-ports.js';
import { createLocalSandbox } from '../../sandbox/local/local-sandbox.js';
import { MemoryWorkspaceFiles } from '../../sandbox/local/memory-workspace-files.js';
import { timerScheduler } from '../cli/node-ports.js';

/**
 * The shell half of the security boundary, against the real just-bash sandbox: commands that try
 * to write out of scope or into .orchestration/ and .git/ — by redirect, cp, mv, rm, tee, sed -i,
 * cd, absolute /workspace paths or computed names — never leave a change there.
 */
const target = fc.constantFrom(
	'src/auth/ok.ts',
	'src/auth/jwt.ts',
	'src/db/users.ts',
	'src/db/new.ts',
	'.orchestration/active_intents.yaml',
	'.orchestration/audit.jsonl',
	'.git/HEAD',
	'.git/hooks/pre-commit',
	'/workspace/src/db/abs.ts',
	'/workspace/.orchestration/x',
	'$(echo .orchestration)/computed',
	'"$D"/via-variable',
	'README.md'
);
const command = fc.oneof(
	target.map((path) => `echo hacked > ${path}`),
	target.map((path) => `echo more >> ${path}`),
	fc.tuple(target, target).map(([from, to]) => `cp ${from} ${to}`),
	fc.tuple(target, target).map(([from, to]) => `mv ${from} ${to}`),
	target.map((path) => `rm -f ${path}`),
	target.map((path) => `echo tee | tee ${path}`),
	target.map((path) => `sed -i 's/a/b/' ${path}`),
	target.map((path) => `cd src && echo up > ../${path.replace(/^\//, '')}`),
	target.map((path) => `D=.git; mkdir -p $(dirname ${path}) && touch ${path}`),
	fc.constant(
		'for folder in src/auth src/db .orchestration .git; do echo loop > $folder/loop.txt; done'
	),
	fc.constant('rm -rf src/db'),
	fc.constant('rm -rf .git .orchestration')
);

async function snapshot(fs: SandboxFileSystem, folder = ''): Promise<Map<string, string>> {
	const files = new Map<string, string>();
	for (const entry of await fs.readdir(folder)) {
		const path = folder ? `${folder}/${entry.name}` : entry.name;
		if (entry.kind === 'directory')
			for (const [child, content] of await snapshot(fs, path)) files.set(child, content);
		else files.set(path, await fs.readTextFile(path));
	}
	return files;
}

describe('shell scope safety (property, real local sandbox)', () => {
	it('no shell command leaves a change outside scope or under .orchestration/ or .git/', async () => {
		let commands = 0;
		await fc.assert(
			fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 6 }), async (lines) => {
				const files = new MemoryWorkspaceFiles({
					'.orchestration/active_intents.yaml': intentsFixture,
					'.orchestration/audit.jsonl': '',
					'.git/HEAD': 'ref: refs/heads/main\n',
					'src/auth/jwt.ts': 'export const a = 1;\n',
					'src/db/users.ts': 'export const b = 2;\n',
					'README.md': '# readme\n'
				});
				const sandbox = await createLocalSandbox({ files });
				try {
					const state = new GovernanceState({
						intentsYaml: intentsFixture,
						approvalPolicy: 'never'
					});
					const pipeline = createToolPipeline({
						state,
						fs: sandbox.fs,
						runner: sandbox,
						capabilities: sandbox.capabilities,
						ledger: new MemoryLedger({ clock: fixedClock }),
						approvals: { request: async () => ({ approved: true }) },
						clock: fixedClock,
						scheduler: timerScheduler,
						ids: sequentialIds(),
						toolVersion: 'test'
					});
					await pipeline.run({
						sessionId: 'builder',
						toolCallId: 'select',
						tool: 'select_active_intent',
						input: { intent_id: 'INT-001' }
					});
					for (const [index, line] of lines.entries()) {
						const before = await snapshot(sandbox.fs);
						await pipeline.run({
							sessionId: 'builder',
							toolCallId: `c${index}`,
							tool: 'execute_command',
							input: { command: line }
						});
						commands++;
						const after = await snapshot(sandbox.fs);
						const changed = [...new Set([...before.keys(), ...after.keys()])].filter(
							(path) => before.get(path) !== after.get(path)
						);
						for (const path of changed) {
							if (path === '.orchestration/AGENT.md' || path === '.orchestration/intent_map.md')
								continue;
							expect(isGovernancePath(path), `\`${line}\` changed ${path}`).toBe(false);
							expect(state.scope.isInScope('INT-001', path), `\`${line}\` changed ${path}`).toBe(
								true
							);
						}
					}
				} finally {
					await sandbox.dispose();
				}
			}),
			{ numRuns: 150 }
		);
		expect(commands).toBeGreaterThan(300);
	});
});
