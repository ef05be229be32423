#!/usr/bin/env node
// The CLI is TypeScript over hooks/ (shared with the browser); tsx compiles it on the fly so
// `npx threadline …` works in a fresh clone without a build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./cli/main.js');
process.exitCode = await main(process.argv.slice(2));
