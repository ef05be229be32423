import type { IncomingMessage, ServerResponse } from 'node:http';
import { classService } from '../class-runtime.js';

// Stands in for build/handler.js when a test starts server.js without a build. Importing
// adapter-node's handler runs SvelteKit's Server.init, which runs app/hooks.server.ts's init
// (`await classService(env)`); outside dev, Server.init rethrows what init throws, so the import
// rejects. This module does the same at import.
await classService(process.env);
console.log(`handler loaded; BODY_SIZE_LIMIT=${process.env.BODY_SIZE_LIMIT}`);

export const handler = (_request: IncomingMessage, _response: ServerResponse, next: () => void) =>
	next();
