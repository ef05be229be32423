#!/usr/bin/env node
// `npm start`: builds only when build/ is missing or was made from other sources than the tree
// holds now (bin/build-fingerprint.js), then runs the production server (server.js).
import { spawnSync } from 'node:child_process';
import { buildIsCurrent } from './build-fingerprint.js';

if (!buildIsCurrent()) {
	console.log('Building Threadline (the sources changed since the last build, or there is none)…');
	const built = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
	if (built.status !== 0) process.exit(built.status ?? 1);
} else {
	console.log('The build is current: starting without rebuilding.');
}
const { main } = await import('../server.js');
await main();
