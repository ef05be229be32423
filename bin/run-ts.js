#!/usr/bin/env node
// Runs a TypeScript entry point (e.g. the bench) with tsx: `node bin/run-ts.js bench/run.ts`.
import { register } from 'tsx/esm/api';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
	console.error('usage: node bin/run-ts.js <file.ts> [arguments…]');
	process.exit(2);
}
register();
process.argv = [process.argv[0] ?? 'node', entry, ...rest];
await import(pathToFileURL(resolve(entry)).href);
