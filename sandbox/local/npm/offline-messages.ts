import type { Command } from 'just-bash';

/**
 * What the offline shell says when it cannot do something, in the learner's terms: programs it
 * does not have (with what to use instead), and just-bash's limits reworded (its own messages
 * tell a host developer to raise `executionLimits`, which a learner cannot do).
 */

const unavailablePrograms: Record<string, string> = {
	python:
		'Python is not available in the offline sandbox (it runs JavaScript and TypeScript: node, tsx, npm test).',
	python3:
		'Python is not available in the offline sandbox (it runs JavaScript and TypeScript: node, tsx, npm test).',
	pip: 'pip is not available: the offline sandbox has no Python and no network.',
	pip3: 'pip is not available: the offline sandbox has no Python and no network.',
	ruby: 'Ruby is not available in the offline sandbox (use node).',
	go: 'Go is not available in the offline sandbox (use node).',
	java: 'Java is not available in the offline sandbox (use node).',
	javac: 'Java is not available in the offline sandbox (use node).',
	cargo: 'Rust is not available in the offline sandbox (use node).',
	rustc: 'Rust is not available in the offline sandbox (use node).',
	gcc: 'C compilers are not available in the offline sandbox (use node).',
	make: 'make is not available in the offline sandbox; run the commands, or npm run <script>.',
	deno: 'Deno is not available; the offline sandbox’s node runs TypeScript (node file.ts).',
	bun: 'Bun is not available; the offline sandbox’s node runs TypeScript (node file.ts), and npm test works.',
	yarn: 'yarn is not available offline; npm test and npm run <script> work here, installs need the WebContainer sandbox.',
	pnpm: 'pnpm is not available offline; npm test and npm run <script> work here, installs need the WebContainer sandbox.',
	// just-bash's sqlite3 (Node only; never in the browser's build) runs sql.js in a worker whose
	// database files live in JavaScript memory outside any limit we can set: one INSERT of blobs
	// took the host to 3 GB. A tool whose memory cannot be bounded is not offered.
	sqlite3:
		'sqlite3 is not available in the offline sandbox: its memory cannot be bounded here. Read and write data with node (JSON files), or use the WebContainer sandbox.'
};

export const unavailableProgramNames = Object.keys(unavailablePrograms);

export function createUnavailableCommands(): Command[] {
	return Object.entries(unavailablePrograms).map(([name, message]) => ({
		name,
		trusted: true,
		execute: async () => ({ stdout: '', stderr: `${name}: ${message}\n`, exitCode: 127 })
	}));
}

/** just-bash's limit messages, reworded for a person at the terminal. */
export function explainShellLimits(stderr: string): string {
	if (!stderr.includes('executionLimits') && !stderr.includes('limit exceeded')) return stderr;
	return stderr
		.replace(
			/too many commands executed \(>(\d+)\), increase executionLimits\.maxCommandCount/g,
			'stopped after $1 commands: this looks like a loop that does not end (one command line may run $1 commands here). For heavy work, write a node script.'
		)
		.replace(
			/(\S+): iteration limit exceeded \((\d+)\)/g,
			'$1: stopped after $2 iterations (one command line may loop $2 times here). For heavy work, write a node script.'
		)
		.replace(
			/maximum recursion depth \((\d+)\) exceeded, increase executionLimits\.maxCallDepth/g,
			'stopped at a call depth of $1: this looks like a function that calls itself without end.'
		)
		.replace(/,? ?increase executionLimits\.\w+/g, ' (a limit of the offline shell)');
}
