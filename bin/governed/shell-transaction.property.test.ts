import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isGovernancePath } from '../../hooks/paths/protected-paths.js';
import {
	changedEntries,
	entriesOf,
	startGovernedShell,
	startingFiles
} from './governed-shell-kit.js';

/**
 * The shell transaction as a property, against the real just-bash sandbox: whatever sequence of
 * commands the agent runs (files and folders, swaps, links, odd names, archives, criteria
 * scripts), every entry outside INT-001's scope and every governance path stays byte-identical,
 * folders included. Names are often computed (`$(printf …)`) so the command pre-check cannot see
 * them and only the transaction stands in the way.
 */
const intents = `active_intents:
  - id: INT-001
    name: JWT
    status: IN_PROGRESS
    owned_scope: ["src/auth/**", "src/middleware/jwt.ts"]
    acceptance_criteria:
      - description: criteria script
        run: "sh src/auth/check.sh"
`;

const place = fc.constantFrom(
	'src/auth',
	'src/auth/sub',
	'src/db',
	'src/db/inner',
	'src/middleware',
	'.git',
	'.git/refs/heads',
	'.orchestration',
	'.ORCHESTRATION',
	'.orchestration.',
	'.Git',
	'.intentignore',
	'src',
	'.'
);
const name = fc.constantFrom(
	'x.ts',
	'jwt.ts',
	'users.ts',
	'HEAD',
	'config',
	'new',
	'e\u0301',
	'dot.',
	'audit.jsonl',
	'!\\a'
);
/** A path, written plainly or computed so that no static analysis can read it. */
const path = fc.tuple(place, name, fc.boolean()).map(([folder, file, hidden]) => {
	const plain = folder === '.' ? file : `${folder}/${file}`;
	if (!hidden) return `'${plain}'`;
	const split = Math.max(1, Math.floor(plain.length / 2));
	return `"$(printf '%s%s' '${plain.slice(0, split)}' '${plain.slice(split)}')"`;
});

const step = fc.oneof(
	path.map((target) => `echo hacked > ${target}`),
	path.map((target) => `mkdir -p ${target}`),
	path.map((target) => `rmdir ${target}`),
	path.map((target) => `rm -r ${target}`),
	path.map((target) => `rm -f ${target}`),
	fc.tuple(path, path).map(([from, to]) => `mv ${from} ${to}`),
	fc.tuple(path, path).map(([from, to]) => `cp -r ${from} ${to}`),
	fc.tuple(path, path).map(([target, link]) => `ln -s ${target} ${link}`),
	path.map((target) => `rm -f ${target}; mkdir -p ${target}; echo swap > ${target}/inner`),
	path.map((target) => `rm -rf ${target}; echo swap > ${target}`),
	fc
		.tuple(path, path)
		.map(
			([source, into]) =>
				`tar -cf /tmp/a.tar ${source} && mkdir -p ${into} && tar -xf /tmp/a.tar -C ${into}`
		),
	path.map((target) => `sed -i 's/a/b/' ${target}`),
	path.map((target) => `cd src/auth && echo rel > ../../${target.replace(/^'/, "'")}`)
);

/** One agent action: a shell line, or writing a criteria script then calling complete_intent. */
const action = fc.oneof(
	{
		weight: 4,
		arbitrary: fc
			.array(step, { minLength: 1, maxLength: 4 })
			.map((steps) => ({ kind: 'command' as const, line: steps.join('; ') }))
	},
	{
		weight: 1,
		arbitrary: fc
			.array(step, { minLength: 1, maxLength: 3 })
			.map((steps) => ({ kind: 'criteria' as const, line: steps.join('\n') }))
	}
);

function inScope(path: string): boolean {
	return path === 'src/middleware/jwt.ts' || path.startsWith('src/auth/');
}

describe('shell transaction (property, real local sandbox)', () => {
	it('no command sequence changes a file or folder outside scope or under governance paths', async () => {
		let runs = 0;
		await fc.assert(
			fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 4 }), async (actions) => {
				const governed = await startGovernedShell({
					files: { ...startingFiles, '.intentignore': 'INT-002\n', 'src/db/inner/keep.ts': 'k\n' },
					intentsYaml: intents
				});
				try {
					for (const { kind, line } of actions) {
						const before = entriesOf(governed.files);
						if (kind === 'command') {
							await governed.run('execute_command', { command: line });
						} else {
							// The script itself is in scope; what it does when run as a criterion is not.
							await governed.sandbox.fs.writeFile('src/auth/check.sh', `${line}\n`);
							await governed.run('complete_intent', { intent_id: 'INT-001' });
						}
						runs++;
						const after = entriesOf(governed.files);
						for (const changed of changedEntries(before, after)) {
							if (kind === 'criteria' && changed === 'src/auth/check.sh') continue;
							const why = `\`${line}\` (${kind}) changed ${changed}`;
							expect(isGovernancePath(changed), why).toBe(false);
							// A folder outside scope may only appear to hold an in-scope path.
							const holdsInScope = [...after.keys()].some(
								(other) => other.startsWith(`${changed}/`) && inScope(other)
							);
							const createdFolder = !before.has(changed) && after.get(changed) === '<folder>';
							expect(inScope(changed) || (createdFolder && holdsInScope), why).toBe(true);
						}
					}
				} finally {
					await governed.dispose();
				}
			}),
			{ numRuns: 120 }
		);
		expect(runs).toBeGreaterThan(200);
	}, 240_000);
});
