import { afterEach, describe, expect, it } from 'vitest';
import { protectedIntentsAtOpen } from '../../hooks/intents/governed-intent-ignore.js';
import { GovernanceState } from '../../hooks/pipeline/governance-state.js';
import {
	changedEntries,
	entriesOf,
	startGovernedShell,
	type GovernedShell
} from './governed-shell-kit.js';

/**
 * Issue 27, cause 4: `.intentignore` was not governed on every path. Each test here is one of
 * the paths, against the real shell and the real pipeline; each fails with the old rule
 * (the terminal's check left `.intentignore` out, an agent's scope could cover it, git rewrote it).
 */
let shell: GovernedShell | undefined;
afterEach(async () => {
	await shell?.dispose();
	shell = undefined;
});

const everythingIntents = `active_intents:
  - id: INT-001
    name: Everything
    status: IN_PROGRESS
    owned_scope: ["**", ".*"]
  - id: INT-002
    name: Database layer
    status: IN_PROGRESS
    owned_scope: ["src/db/**"]
`;

async function start(files: Record<string, string> = {}) {
	shell = await startGovernedShell({
		files: {
			'.orchestration/audit.jsonl': '',
			'.intentignore': 'INT-002\n',
			'src/db/users.ts': 'export const b = 2;\n',
			...files
		},
		intentsYaml: everythingIntents,
		intent: null
	});
	return shell;
}

async function terminalLine(governed: GovernedShell, line: string) {
	const session = await governed.sandbox.openShell({ cols: 80, rows: 24 });
	if (session.mode !== 'line') throw new Error('expected a line session');
	const before = entriesOf(governed.files);
	let output = '';
	const result = await session.run(line, {
		review: governed.pipeline.terminalReview(),
		onOutput: (chunk) => (output += chunk)
	});
	return { result, output, changed: changedEntries(before, entriesOf(governed.files)) };
}

const text = async (governed: GovernedShell, path: string) =>
	new TextDecoder().decode(await governed.files.read(path));

describe('.intentignore is governed on every path that writes', () => {
	it.each([
		'echo INT-404 > .intentignore',
		': > .intentignore',
		'rm .intentignore',
		'echo INT-404 > .IntentIgnore.',
		'echo INT-404 > .\u0131ntentignore',
		'mkdir -p .orche\u017ftration && echo x > .orche\u017ftration/active_intents.yaml',
		'mkdir -p .g\u0131t && echo x > .g\u0131t/HEAD'
	])("the person's terminal: `%s` never reaches the workspace", async (line) => {
		const governed = await start();
		const { changed, result } = await terminalLine(governed, `${line}; echo ok > notes.md`);
		expect(changed).toEqual(['notes.md']);
		expect(result.refused?.length).toBeGreaterThan(0);
		expect(await text(governed, '.intentignore')).toBe('INT-002\n');
	});

	it('an npm script run from the terminal (an agent may have written it) cannot rewrite it', async () => {
		const governed = await start({
			'package.json': JSON.stringify({ scripts: { test: 'echo "# none" > .intentignore' } })
		});
		const { changed, result } = await terminalLine(governed, 'npm test');
		expect(changed).toEqual([]);
		expect(result.refused?.map((entry) => entry.path)).toEqual(['.intentignore']);
		expect(await text(governed, '.intentignore')).toBe('INT-002\n');
	});

	it('git checkout of another branch leaves it as governance recorded it', async () => {
		const governed = await start();
		// The other branch carries another .intentignore (committed before the rule, say).
		// git leaves governance files untracked unless added by name with -f (as .git/info/exclude would).
		for (const line of [
			'git init',
			'git add -A',
			'git add -f .intentignore',
			'git commit -qm one',
			'git switch -c other'
		])
			expect((await terminalLine(governed, line)).result.exitCode, line).toBe(0);
		await governed.files.write('.intentignore', new TextEncoder().encode('# none\n'));
		for (const line of ['git add -f .intentignore', 'git commit -qm two', 'git switch main'])
			expect((await terminalLine(governed, line)).result.exitCode, line).toBe(0);
		await governed.files.write('.intentignore', new TextEncoder().encode('INT-002\n'));
		const { output, changed } = await terminalLine(governed, 'git checkout other');
		expect(output).toContain('left .intentignore as it is');
		expect(changed).toEqual([]);
		expect(await text(governed, '.intentignore')).toBe('INT-002\n');
	});

	it("an agent whose scope covers it cannot write it, and after a reload the protected intent's writes still ask", async () => {
		const governed = await start();
		await governed.pipeline.recordWorkspaceSnapshot(['.intentignore', 'src/db/users.ts']);
		await governed.pipeline.loadHookPolicy(
			'rules:\n  - match: { tools: [write_to_file] }\n    action: allow\n'
		);
		await governed.run('select_active_intent', { intent_id: 'INT-001' });
		const write = await governed.run('write_to_file', {
			path: '.intentignore',
			content: '# nothing protected\n',
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		expect(write.ok).toBe(false);
		if (!write.ok) expect(write.error.code).toBe('protected_path');
		const command = await governed.run('execute_command', {
			command: 'echo "# none" > .intentignore',
			intent_id: 'INT-001'
		});
		expect(command.ok).toBe(false);
		expect(await text(governed, '.intentignore')).toBe('INT-002\n');

		// A reload: protection is derived from the recorded .intentignore, even if the file was
		// changed outside governance meanwhile (here: behind the store's back).
		await governed.files.write('.intentignore', new TextEncoder().encode('# none\n'));
		const reopened = await protectedIntentsAtOpen({
			events: await governed.ledger.events(),
			current: await governed.files.read('.intentignore'),
			blob: async () => new TextEncoder().encode('INT-002\n'),
			intentIds: ['INT-001', 'INT-002']
		});
		const state = new GovernanceState({
			intentsYaml: everythingIntents,
			intentIgnore: reopened.text
		});
		expect(state.protectedIntentIds.has('INT-002')).toBe(true);
		expect(reopened.problem).toMatch(/differs from the version governance recorded/);
	});
});
