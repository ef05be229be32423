import type { Command, ExecResult, ResolvedCommandContext } from 'just-bash';
import { findPackageJson, programsOf, quoteArguments, scriptsOf } from './package-scripts.js';

/**
 * `npm` in the offline sandbox: the part that needs no registry. `npm test`, `npm start`,
 * `npm run <script> [-- args]` run package.json scripts (with their pre/post scripts) in the
 * same shell, so `node`, `tsx`, `node --test` and the shell's commands work there; a script
 * that starts a program the offline shell does not have (vitest, jest, a binary from
 * node_modules) is refused before anything runs, with the reason. Everything that needs the
 * registry (install, ci, update, publish…) says so.
 */

export const npmVersion = '10.0.0-offline';

/** Shell builtins a script may start with, besides the commands just-bash registers. */
const shellBuiltins = new Set([
	'cd',
	'echo',
	'printf',
	'test',
	'[',
	'true',
	'false',
	'exit',
	'export',
	'set',
	'unset',
	'read',
	'source',
	'.',
	'eval',
	'exec',
	'local',
	'return',
	'shift',
	'type',
	'command',
	'pwd',
	'if',
	'for',
	'while',
	'until',
	'case',
	'function',
	'!'
]);

const registryCommands = new Set([
	'install',
	'i',
	'in',
	'ins',
	'inst',
	'insta',
	'instal',
	'isnt',
	'isnta',
	'isntal',
	'isntall',
	'add',
	'ci',
	'clean-install',
	'install-clean',
	'install-test',
	'it',
	'cit',
	'update',
	'up',
	'upgrade',
	'udpate',
	'uninstall',
	'remove',
	'rm',
	'r',
	'un',
	'unlink',
	'link',
	'ln',
	'publish',
	'unpublish',
	'outdated',
	'audit',
	'dedupe',
	'ddp',
	'prune',
	'rebuild',
	'rb',
	'exec',
	'x',
	'init',
	'create',
	'innit',
	'pack',
	'login',
	'logout',
	'adduser',
	'whoami',
	'view',
	'info',
	'show',
	'v',
	'search',
	'find',
	's',
	'se',
	'fund',
	'doctor',
	'deprecate',
	'dist-tag'
]);

export const npmHelp = `npm (offline): runs package.json scripts in the offline sandbox.

  npm test [-- args]          run the "test" script (also: npm t)
  npm start [-- args]         run the "start" script
  npm run <script> [-- args]  run any script; npm run alone lists them
  npm --version

Scripts run in this shell: node, tsx, node --test and the shell's commands work. Packages from
npm are not available offline: npm install/ci/update and programs from node_modules/.bin
(vitest, jest, eslint…) need the WebContainer sandbox.
`;

export function createNpmCommand(knownPrograms: () => ReadonlySet<string>): Command {
	return {
		name: 'npm',
		trusted: true,
		execute: (args, context) => runNpm(args, context, knownPrograms())
	};
}

async function runNpm(
	args: string[],
	context: ResolvedCommandContext,
	knownPrograms: ReadonlySet<string>
): Promise<ExecResult> {
	// Options before `--` are npm's own (npm test --silent); what follows `--` is the script's.
	const separator = args.indexOf('--');
	const own = separator === -1 ? args : args.slice(0, separator);
	const silent = own.some((arg) => /^(--silent|-s|--quiet|-q|--loglevel=silent)$/.test(arg));
	const versionAsked = own.length === 1 && /^(-v|--version)$/.test(own[0] ?? '');
	const words = own.filter((arg) => !arg.startsWith('-') || arg === '-h' || arg === '--help');
	const [first = versionAsked ? '--version' : '', ...positional] = words;
	const rest = separator === -1 ? positional : [...positional, '--', ...args.slice(separator + 1)];
	switch (first) {
		case '':
		case 'help':
		case '-h':
		case '--help':
			return { stdout: npmHelp, stderr: '', exitCode: first === '' ? 1 : 0 };
		case '-v':
		case '--version':
		case 'version':
			return { stdout: `${npmVersion}\n`, stderr: '', exitCode: 0 };
		case 'test':
		case 't':
		case 'tst':
			return runScript('test', rest, context, knownPrograms, silent);
		case 'start':
			return runScript('start', rest, context, knownPrograms, silent);
		case 'stop':
		case 'restart':
			return runScript(first, rest, context, knownPrograms, silent);
		case 'run':
		case 'run-script':
		case 'rum':
		case 'urn': {
			const [name, ...scriptArguments] = rest;
			if (!name) return listScripts(context);
			return runScript(name, scriptArguments, context, knownPrograms, silent);
		}
		default:
			if (registryCommands.has(first)) {
				return failure(
					`npm ${first} needs the npm registry, which the offline sandbox cannot reach: packages from npm are not available offline. Use the WebContainer sandbox for npm ${first}; here, write the code in the workspace (node, tsx, node --test and npm run work).`
				);
			}
			return failure(
				`npm: unknown command "${first}" here (the offline npm knows test, start, run and --version; see npm help)`
			);
	}
}

async function listScripts(context: ResolvedCommandContext): Promise<ExecResult> {
	const found = await findPackageJson(context.fs, context.cwd);
	if ('error' in found) return failure(`npm: ${found.error}`);
	const scripts = scriptsOf(found.json);
	const names = Object.keys(scripts);
	if (names.length === 0) return { stdout: '', stderr: '', exitCode: 0 };
	const lines = names.map((name) => `  ${name}\n    ${scripts[name]}`);
	return {
		stdout: `Scripts available in ${String(found.json.name ?? '')} via \`npm run-script\`:\n${lines.join('\n')}\n`,
		stderr: '',
		exitCode: 0
	};
}

async function runScript(
	name: string,
	args: string[],
	context: ResolvedCommandContext,
	knownPrograms: ReadonlySet<string>,
	silent: boolean
): Promise<ExecResult> {
	const found = await findPackageJson(context.fs, context.cwd);
	if ('error' in found) return failure(`npm: ${found.error}`);
	const scripts = scriptsOf(found.json);
	const script = scripts[name];
	if (script === undefined) {
		if (name === 'start' && (await context.fs.exists(`${found.folder}/server.js`))) {
			return runLines(['node server.js'], name, args, found, context, silent);
		}
		const available = Object.keys(scripts);
		return failure(
			`npm error Missing script: "${name}"${available.length > 0 ? `\n\nScripts available: ${available.join(', ')} (npm run lists them)` : ''}`
		);
	}
	const lines = [
		...(scripts[`pre${name}`] !== undefined ? [scripts[`pre${name}`] ?? ''] : []),
		script,
		...(scripts[`post${name}`] !== undefined ? [scripts[`post${name}`] ?? ''] : [])
	];
	for (const line of lines) {
		const unavailable = programsOf(line).filter((program) => !isRunnable(program, knownPrograms));
		if (unavailable.length > 0) {
			return failure(
				`npm: the "${name}" script runs \`${line}\`, but ${unavailable.map((program) => `\`${program}\``).join(', ')} ${unavailable.length === 1 ? 'is' : 'are'} not available in the offline sandbox (programs from npm packages are not installed here). Use the WebContainer sandbox, or change the script to one the offline shell can run (node, tsx, node --test, shell commands).`
			);
		}
	}
	return runLines(lines, name, args, found, context, silent, script);
}

async function runLines(
	lines: string[],
	name: string,
	args: string[],
	found: { folder: string; json: Record<string, unknown> },
	context: ResolvedCommandContext,
	silent: boolean,
	main = lines[0]
): Promise<ExecResult> {
	if (!context.exec) return failure('npm: this shell cannot run scripts');
	const passed = args[0] === '--' ? args.slice(1) : args;
	let stdout = '';
	let stderr = '';
	const packageName = `${String(found.json.name ?? '')}@${String(found.json.version ?? '')}`;
	for (const line of lines) {
		const command = line === main && passed.length > 0 ? `${line} ${quoteArguments(passed)}` : line;
		if (!silent) stdout += `\n> ${packageName} ${name}\n> ${command}\n\n`;
		const result = await context.exec(command, {
			cwd: found.folder,
			env: {
				npm_lifecycle_event: name,
				npm_lifecycle_script: line,
				npm_package_name: String(found.json.name ?? ''),
				npm_package_version: String(found.json.version ?? ''),
				npm_command: name === 'test' || name === 'start' ? name : 'run-script',
				INIT_CWD: context.cwd
			}
		});
		stdout += result.stdout;
		stderr += result.stderr;
		if (result.exitCode !== 0) {
			if (!silent) {
				stderr += `npm error Lifecycle script \`${name}\` failed with error:\nnpm error code ${result.exitCode}\nnpm error command sh -c ${command}\n`;
			}
			return { stdout, stderr, exitCode: result.exitCode };
		}
	}
	return { stdout, stderr, exitCode: 0 };
}

function isRunnable(program: string, knownPrograms: ReadonlySet<string>): boolean {
	if (shellBuiltins.has(program) || knownPrograms.has(program)) return true;
	// ./scripts/x.sh, node_modules/.bin/x: a path runs only if the shell can (it will say).
	return program.includes('/') && !program.includes('node_modules/');
}

function failure(message: string): ExecResult {
	return { stdout: '', stderr: `${message}\n`, exitCode: 1 };
}
