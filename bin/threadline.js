#!/usr/bin/env node
// The CLI is TypeScript over hooks/ (shared with the browser); tsx compiles it on the fly so
// `npx threadline …` works in a fresh clone without a build step.
import { register } from 'tsx/esm/api';

// A reader that stops early (`threadline report … | head`) closes the pipe: the rest of the
// output has nowhere to go, which is no error of the command's. It still ends with its own exit
// code, not a stack trace.
for (const stream of [process.stdout, process.stderr])
	stream.on('error', (error) => {
		if (error.code !== 'EPIPE') throw error;
	});

register();
const { main } = await import('./cli/main.js');
process.exitCode = await main(process.argv.slice(2));
