#!/usr/bin/env node
// A command hook as other agent tools run them: one process per tool call, the call as JSON on
// stdin, the decision as JSON on stdout. It makes the same scope decision as the in-process scope
// hook (minimatch with dot, `!` patterns exclude), so the bench compares like with like.
import { minimatch } from 'minimatch';

/** @param {NodeJS.ReadableStream} stream */
async function readAll(stream) {
	let text = '';
	stream.setEncoding('utf8');
	for await (const chunk of stream) text += chunk;
	return text;
}

/**
 * @param {string} path
 * @param {string[]} ownedScope
 */
function isInScope(path, ownedScope) {
	const options = { dot: true, nonegate: true, nocomment: true };
	const includes = ownedScope.filter((pattern) => !pattern.startsWith('!'));
	const excludes = ownedScope
		.filter((pattern) => pattern.startsWith('!'))
		.map((pattern) => pattern.slice(1));
	const matchesAny = (/** @type {string[]} */ patterns) =>
		patterns.some(
			(pattern) =>
				minimatch(path, pattern, options) ||
				(pattern.endsWith('/**') && path === pattern.slice(0, -3))
		);
	return matchesAny(includes) && !matchesAny(excludes);
}

try {
	/** @type {{ tool: string, tool_input: { path?: unknown }, intent: { id: string, owned_scope: string[] } }} */
	const call = JSON.parse(await readAll(process.stdin));
	const path = call.tool_input.path;
	if (typeof path !== 'string') {
		process.stdout.write(JSON.stringify({ decision: 'allow' }));
	} else if (isInScope(path, call.intent.owned_scope)) {
		process.stdout.write(JSON.stringify({ decision: 'allow' }));
	} else {
		process.stdout.write(
			JSON.stringify({
				decision: 'deny',
				reason: `Scope Violation: ${call.intent.id} is not authorized to edit ${path}. Request scope expansion.`
			})
		);
	}
} catch (error) {
	// Fail closed, like the in-process pipeline: a hook that cannot decide denies.
	process.stdout.write(
		JSON.stringify({
			decision: 'deny',
			reason: error instanceof Error ? error.message : String(error)
		})
	);
	process.exitCode = 2;
}
